import Foundation
import KeychainModel

extension AttributeSet {
    /// A compact, versioned binary form that round-trips every value exactly (a blob string stays a string,
    /// §10.10); the engine seals these bytes as the item's attributes.
    ///
    /// Layout: version byte `1`, entry count (UInt32 BE), then per entry the code (UInt16 BE length + UTF-8),
    /// a type tag, and the payload — text/data as UInt32 BE length + bytes, numbers as Int64 BE, dates as the
    /// `CFAbsoluteTime` bit pattern (UInt64 BE), access controls as protection (UInt8 length + UTF-8) and
    /// flags (UInt64 BE), and, when bound to an enrolled biometric set, that set's hash.
    public func encoded() -> Data {
        var writer = BinaryWriter()
        writer.byte(AttributeSetFormat.version)
        writer.uint32(UInt32(count))
        for (code, value) in self {
            writer.text16(code)
            switch value {
            case .string(let text):
                writer.byte(AttributeSetFormat.string)
                writer.bytes32(Data(text.utf8))
            case .data(let bytes):
                writer.byte(AttributeSetFormat.data)
                writer.bytes32(bytes)
            case .number(let integer):
                writer.byte(AttributeSetFormat.number)
                writer.uint64(UInt64(bitPattern: integer))
            case .date(let moment):
                writer.byte(AttributeSetFormat.date)
                writer.uint64(moment.timeIntervalSinceReferenceDate.bitPattern)
            case .accessControl(let control):
                writer.byte(control.boundBiometrySet == nil ? AttributeSetFormat.accessControl : AttributeSetFormat.boundAccessControl)
                writer.text8(control.protection.rawValue)
                writer.uint64(control.flags.rawValue)
                if let set = control.boundBiometrySet { writer.bytes32(Data(set)) }
            }
        }
        return writer.output
    }

    /// Decodes ``encoded()`` bytes; throws ``KeychainStatus/decode`` (-26275) for anything malformed
    /// (unknown version or tag, truncation, trailing bytes, invalid UTF-8, a repeated code, unknown protection).
    public init(decoding encoded: Data) throws(KeychainStatus) {
        var reader = BinaryReader(encoded)
        guard try reader.byte() == AttributeSetFormat.version else { throw .decode }
        let entryCount = try reader.uint32()
        // Every entry takes at least 4 bytes, so the count cannot ask for more room than the input justifies.
        var decoded = AttributeSet(reservingCapacity: Swift.min(Int(entryCount), encoded.count / 4))
        for _ in 0..<entryCount {
            let code = try reader.text16()
            guard !decoded.contains(code) else { throw .decode }
            decoded.appendNew(code, try Self.decodeValue(&reader))
        }
        guard reader.isAtEnd else { throw .decode }
        self = decoded
    }

    private static func decodeValue(_ reader: inout BinaryReader) throws(KeychainStatus) -> AttributeValue {
        switch try reader.byte() {
        case AttributeSetFormat.string:
            return .string(try reader.text32())
        case AttributeSetFormat.data:
            return .data(try reader.bytes32())
        case AttributeSetFormat.number:
            return .number(Int64(bitPattern: try reader.uint64()))
        case AttributeSetFormat.date:
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.uint64())))
        case AttributeSetFormat.accessControl:
            guard let protection = ProtectionClass(rawValue: try reader.text8()) else { throw .decode }
            return .accessControl(AccessControl(protection: protection, flags: .init(rawValue: try reader.uint64())))
        case AttributeSetFormat.boundAccessControl:
            guard let protection = ProtectionClass(rawValue: try reader.text8()) else { throw .decode }
            let flags = AccessControlFlags(rawValue: try reader.uint64())
            return .accessControl(AccessControl(protection: protection, flags: flags, boundBiometrySet: [UInt8](try reader.bytes32())))
        default:
            throw .decode
        }
    }
}

/// Constants of the ``AttributeSet`` binary format.
enum AttributeSetFormat {
    static let version: UInt8 = 1
    static let string: UInt8 = 1
    static let data: UInt8 = 2
    static let number: UInt8 = 3
    static let date: UInt8 = 4
    static let accessControl: UInt8 = 5
    /// An access control bound to an enrolled biometric set: as `accessControl`, then the set's hash (UInt32 BE length + bytes).
    static let boundAccessControl: UInt8 = 6
}
