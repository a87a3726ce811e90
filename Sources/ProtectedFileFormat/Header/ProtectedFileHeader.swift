import Crypto
import Foundation
import KeychainModel

/// The header of a protected file (format version 1), every integer big-endian:
///
/// | bytes | field |
/// | --- | --- |
/// | 4 | magic `CFPF` |
/// | 1 | format version (1) |
/// | 1 | protection class (Apple's number: 1 A … 4 D) |
/// | 1 | flags: bit 0, a one-time public key follows the wrapped key (class B); other bits zero |
/// | 1 | log2 of the chunk size (16) |
/// | 16 | the file's random identifier (salt of its keys) |
/// | 2 | length of the wrapped key |
/// | n | the file key, wrapped under its class key |
/// | 32 | class B only: the one-time X25519 public key |
/// | 32 | HMAC-SHA256 of everything before it, under the header key (``FileContentKeys/header``) |
///
/// The class, the wrapped key and the one-time key can be read without any key (``parse(_:)``); the
/// authentication code is checked once the file key is unwrapped (``authenticate(_:with:)``), so that no
/// header byte can change unnoticed. Changing a file's class writes a new file with a new key.
public struct ProtectedFileHeader: Sendable, Hashable {
    /// The magic bytes.
    public static let magic: [UInt8] = Array("CFPF".utf8)
    /// The format version this code writes and reads.
    public static let version: UInt8 = 1
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

    /// A header for a new file.
    public init(wrappedKey: WrappedFileKey, fileID: Data = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) })) {
        self.wrappedKey = wrappedKey
        self.fileID = fileID
    }

    /// The file's protection class.
    public var protection: FileProtectionClass { wrappedKey.protection }

    /// The header's length in the file.
    public var encodedLength: Int {
        Self.fixedLength + wrappedKey.wrappedKey.count + (wrappedKey.ephemeralPublicKey == nil ? 0 : Self.ephemeralKeyLength)
            + Self.macLength
    }

    /// The header's bytes, authenticated with `headerKey`.
    public func encoded(headerKey: SymmetricKey) -> Data {
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
        bytes.append(contentsOf: HMAC<SHA256>.authenticationCode(for: bytes, using: headerKey))
        return bytes
    }

    /// Reads a header from the start of `bytes` (at least the header; more is ignored), without checking its
    /// authentication code.
    public static func parse(_ bytes: Data) throws(FormatFailure) -> ProtectedFileHeader {
        let bytes = [UInt8](bytes.prefix(maximumLength))
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else { throw .notProtected }
        guard bytes.count >= fixedLength else { throw .damaged(reason: "its header is cut short") }
        guard bytes[4] == version else { throw .unsupportedVersion(bytes[4]) }
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
        return ProtectedFileHeader(wrappedKey: wrapped, fileID: fileID)
    }

    /// Checks the authentication code of the header at the start of `bytes` with the file's header key.
    public func authenticate(_ bytes: Data, with headerKey: SymmetricKey) throws(FormatFailure) {
        let length = encodedLength
        guard bytes.count >= length else { throw .damaged(reason: "its header is cut short") }
        let start = bytes.startIndex
        let signed = bytes[start..<(start + length - Self.macLength)]
        let mac = bytes[(start + length - Self.macLength)..<(start + length)]
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: signed, using: headerKey) else {
            throw .damaged(reason: "its header fails its authentication")
        }
    }
}
