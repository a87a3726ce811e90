import Crypto
import Foundation
import KeychainModel

/// The header of a protected file (format version 2; version 1 is still read), every integer big-endian:
///
/// | bytes | field |
/// | --- | --- |
/// | 4 | magic `CFPF` |
/// | 1 | format version (2) |
/// | 1 | protection class (Apple's number: 1 A … 4 D) |
/// | 1 | flags: bit 0, a one-time public key follows the wrapped key (class B); other bits zero |
/// | 1 | log2 of the chunk size (16) |
/// | 16 | the file's random identifier (salt of its keys) |
/// | 2 | length of the wrapped key |
/// | n | the file key, wrapped under its class key |
/// | 32 | class B only: the one-time X25519 public key |
/// | 32 | HMAC-SHA256 under the header key (``FileContentKeys/header``) of everything before it, then (version 2) the
/// path the file belongs at: its length in 4 bytes and its UTF-8 bytes |
///
/// The class, the wrapped key and the one-time key can be read without any key (``parse(_:)``); the
/// authentication code is checked once the file key is unwrapped (``authenticate(_:with:boundTo:)``), so that no
/// header byte can change unnoticed, and a version 2 file opens only at the path it was written for: copied over
/// another protected file of the same keychain (`cp other config`), or moved by hand, it is refused as damaged
/// rather than read as the other file's content. The path is not stored: whoever opens the file says where it is.
/// Moving a file writes its header again for the new path. Changing a file's class writes a new file with a new key.
public struct ProtectedFileHeader: Sendable, Hashable {
    /// The magic bytes.
    public static let magic: [UInt8] = Array("CFPF".utf8)
    /// The format version this code writes.
    public static let version: UInt8 = 2
    /// The first version, whose header is bound to no path: still read, never written.
    public static let unboundVersion: UInt8 = 1
    /// The most bytes a header can take, to read it in one go.
    public static let maximumLength = 8 + 16 + 2 + 512 + 32 + 32
    private static let chunkSizeLog2: UInt8 = 16
    private static let fixedLength = 8 + 16 + 2
    private static let macLength = 32
    private static let ephemeralKeyLength = 32

    /// The file's key, wrapped, with its class.
    public let wrappedKey: WrappedFileKey
    /// The file's random identifier.
    public let fileID: Data
    /// The format version: ``version`` for every header written now, ``unboundVersion`` for an older file's.
    public let formatVersion: UInt8

    /// A header for a new file.
    public init(wrappedKey: WrappedFileKey, fileID: Data = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) })) {
        self.init(wrappedKey: wrappedKey, fileID: fileID, formatVersion: Self.version)
    }

    private init(wrappedKey: WrappedFileKey, fileID: Data, formatVersion: UInt8) {
        self.wrappedKey = wrappedKey
        self.fileID = fileID
        self.formatVersion = formatVersion
    }

    /// The same key and identifier in a header of the current version, to be written for another path (a move, or
    /// an older file written again).
    public var current: ProtectedFileHeader { ProtectedFileHeader(wrappedKey: wrappedKey, fileID: fileID) }

    /// Whether the file opens only at the path its header was written for.
    public var isBoundToPath: Bool { formatVersion >= Self.version }

    /// The file's protection class.
    public var protection: FileProtectionClass { wrappedKey.protection }

    /// The header's length in the file.
    public var encodedLength: Int {
        Self.fixedLength + wrappedKey.wrappedKey.count + (wrappedKey.ephemeralPublicKey == nil ? 0 : Self.ephemeralKeyLength)
            + Self.macLength
    }

    /// The header's bytes, authenticated with `headerKey` for the file at `path` (absolute, as
    /// ``authenticate(_:with:boundTo:)`` will be given it).
    public func encoded(headerKey: SymmetricKey, boundTo path: String) -> Data {
        precondition(isBoundToPath, "only current headers are written")
        var bytes = Data(Self.magic)
        bytes.append(Self.version)
        bytes.append(wrappedKey.protection.rawValue)
        bytes.append(wrappedKey.ephemeralPublicKey == nil ? 0 : 1)
        bytes.append(Self.chunkSizeLog2)
        bytes.append(fileID)
        bytes.append(UInt8(wrappedKey.wrappedKey.count >> 8))
        bytes.append(UInt8(wrappedKey.wrappedKey.count & 0xFF))
        bytes.append(wrappedKey.wrappedKey)
        if let ephemeral = wrappedKey.ephemeralPublicKey { bytes.append(ephemeral) }
        bytes.append(contentsOf: Self.authenticationCode(of: bytes, boundTo: path, using: headerKey))
        return bytes
    }

    /// HMAC-SHA256 of the header's fields and the path's length and bytes.
    private static func authenticationCode(of fields: some DataProtocol, boundTo path: String?, using key: SymmetricKey) -> HMAC<SHA256>.MAC {
        var code = HMAC<SHA256>(key: key)
        code.update(data: fields)
        if let path {
            let bytes = Array(path.utf8)
            code.update(data: withUnsafeBytes(of: UInt32(bytes.count).bigEndian) { Array($0) })
            code.update(data: bytes)
        }
        return code.finalize()
    }

    /// Reads a header from the start of `bytes` (at least the header; more is ignored), without checking its
    /// authentication code.
    public static func parse(_ bytes: Data) throws(FormatFailure) -> ProtectedFileHeader {
        let bytes = [UInt8](bytes.prefix(maximumLength))
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else { throw .notProtected }
        guard bytes.count >= fixedLength else { throw .damaged(reason: "its header is cut short") }
        let formatVersion = bytes[4]
        guard formatVersion == version || formatVersion == unboundVersion else { throw .unsupportedVersion(formatVersion) }
        guard let protection = FileProtectionClass(rawValue: bytes[5]) else {
            throw .damaged(reason: "its header names no protection class")
        }
        let hasEphemeralKey = bytes[6] == 1
        guard bytes[6] & ~1 == 0, hasEphemeralKey == (protection == .completeUnlessOpen) else {
            throw .damaged(reason: "its header's flags do not match its class")
        }
        guard bytes[7] == chunkSizeLog2 else { throw .damaged(reason: "its header names another chunk size") }
        let fileID = Data(bytes[8..<24])
        let keyLength = Int(bytes[24]) << 8 | Int(bytes[25])
        guard keyLength >= 24, keyLength <= 512 else { throw .damaged(reason: "its wrapped key has an impossible length") }
        let keyEnd = fixedLength + keyLength
        let ephemeralEnd = keyEnd + (hasEphemeralKey ? ephemeralKeyLength : 0)
        guard bytes.count >= ephemeralEnd + macLength else { throw .damaged(reason: "its header is cut short") }
        let wrapped = WrappedFileKey(
            protection: protection, wrappedKey: Data(bytes[fixedLength..<keyEnd]),
            ephemeralPublicKey: hasEphemeralKey ? Data(bytes[keyEnd..<ephemeralEnd]) : nil)
        return ProtectedFileHeader(wrappedKey: wrapped, fileID: fileID, formatVersion: formatVersion)
    }

    /// Checks the authentication code of the header at the start of `bytes` with the file's header key, for the file
    /// opened at `path` (a version 1 header is bound to no path).
    public func authenticate(_ bytes: Data, with headerKey: SymmetricKey, boundTo path: String) throws(FormatFailure) {
        let length = encodedLength
        guard bytes.count >= length else { throw .damaged(reason: "its header is cut short") }
        let start = bytes.startIndex
        let signed = bytes[start..<(start + length - Self.macLength)]
        let mac = bytes[(start + length - Self.macLength)..<(start + length)]
        let expected = Self.authenticationCode(of: signed, boundTo: isBoundToPath ? path : nil, using: headerKey)
        guard expected == mac else {
            throw .damaged(
                reason: isBoundToPath
                    ? "its header fails its authentication: it was changed, or it belongs at another path (copied, swapped or moved by hand; `coffer file mv` moves a protected file)"
                    : "its header fails its authentication")
        }
    }
}
