import Foundation
import KeychainModel

/// The fields of the file-key messages: ``MessageTag/makeFileKey``, ``MessageTag/unwrapFileKey`` and
/// ``MessageTag/fileKey``.
enum FileKeyCoding {
    /// A wrapped file key: the class (one byte, Apple's number 1–4), the wrapped key (length, bytes), the
    /// one-time public key (presence byte, then length and bytes).
    static func encode(_ wrapped: WrappedFileKey, into writer: inout WireWriter) throws(ProtocolError) {
        writer.byte(wrapped.protection.rawValue)
        try writer.bytes(wrapped.wrappedKey)
        writer.bool(wrapped.ephemeralPublicKey != nil)
        if let ephemeral = wrapped.ephemeralPublicKey { try writer.bytes(ephemeral) }
    }

    static func decodeWrapped(from reader: inout WireReader) throws(ProtocolError) -> WrappedFileKey {
        let protection = try decodeProtection(from: &reader)
        let wrappedKey = try reader.data()
        let ephemeral = try reader.bool("presence") ? try reader.data() : nil
        return WrappedFileKey(protection: protection, wrappedKey: wrappedKey, ephemeralPublicKey: ephemeral)
    }

    /// A file key: the wrapped key, then the key itself (length, bytes).
    static func encode(_ key: FileKey, into writer: inout WireWriter) throws(ProtocolError) {
        try encode(key.wrapped, into: &writer)
        try writer.secret(key.key)
    }

    static func decodeKey(from reader: inout WireReader) throws(ProtocolError) -> FileKey {
        let wrapped = try decodeWrapped(from: &reader)
        return FileKey(key: try reader.secret(), wrapped: wrapped)
    }

    static func encode(_ protection: FileProtectionClass, into writer: inout WireWriter) {
        writer.byte(protection.rawValue)
    }

    static func decodeProtection(from reader: inout WireReader) throws(ProtocolError) -> FileProtectionClass {
        guard let protection = FileProtectionClass(rawValue: try reader.byte()) else {
            throw .malformedPayload(.invalidField("file protection class"))
        }
        return protection
    }
}
