import Crypto
import Foundation

/// The first 96 bytes of a backup file.
///
/// | offset | size | field |
/// | --- | --- | --- |
/// | 0 | 4 | magic `CFBK` |
/// | 4 | 1 | format version: 1 (the plaintext is a ``BackupRecordStream``) or 2 (a ``BackupPayload``: items and protected files) |
/// | 5 | 1 | secret kind (1 password, 2 recovery key) |
/// | 6 | 3 | scrypt log2 N, r, p (zero for a recovery key) |
/// | 9 | 3 | reserved, zero |
/// | 12 | 4 | chunk size in bytes (UInt32 BE) |
/// | 16 | 32 | random salt |
/// | 48 | 32 | key check: HMAC-SHA256 of bytes 0–47 under the check key |
/// | 80 | 16 | checksum: the first 16 bytes of SHA-256 of bytes 0–79 |
///
/// A backup made for a recipient (secret kind 3) has its ``BackupRecipientBlock`` right after: a UInt16 length
/// (1,136), the recipient key's identifier (16 bytes) and the X-Wing ciphertext (1,120 bytes). The chunks follow.
/// The block is part of every chunk's associated data, and changing it changes the decapsulated secret, so an
/// altered block fails the key check.
///
/// The checksum tells a damaged header from a wrong password before any key is derived; the key check tells
/// a wrong password from damaged content; the whole header is also the associated data of every chunk.
public struct BackupHeader: Sendable, Equatable {
    /// The newest format version this build writes and reads: 2, a backup that holds protected files.
    public static let currentVersion: UInt8 = 2
    /// The version of a backup of items alone, still written when no file is included so that older builds
    /// read it.
    public static let itemsOnlyVersion: UInt8 = 1
    /// The versions this build reads.
    static let supportedVersions = itemsOnlyVersion...currentVersion
    static let magic: [UInt8] = Array("CFBK".utf8)
    /// The header's length in bytes.
    public static let length = 96
    static let checkedLength = 48
    /// The chunk size new backups use (1 MiB).
    static let defaultChunkSize = 1 << 20
    static let chunkSizes = 4096...(16 << 20)

    /// The format version (``itemsOnlyVersion`` or ``currentVersion``): what the plaintext holds.
    public var version: UInt8 = BackupHeader.itemsOnlyVersion
    /// What protects the backup.
    public var secretKind: BackupSecretKind
    /// scrypt's parameters (a password backup).
    public var kdf: BackupKDF
    /// Plaintext bytes per chunk.
    public var chunkSize: Int
    /// The random salt (also salts the HKDF of both keys).
    public var salt: Data
    /// For a backup made for a recipient: which key, and the ciphertext it decapsulates.
    public var recipientBlock: BackupRecipientBlock? = nil

    /// The most bytes a header takes, with a recipient block: what to read before ``BackupFile/header(of:)``.
    public static let maximumLength = length + BackupRecipientBlock.encodedLength

    /// The bytes this header takes in the file: 96, and the recipient block when there is one.
    public var encodedLength: Int { Self.length + (recipientBlock == nil ? 0 : BackupRecipientBlock.encodedLength) }

    /// The fields before the key check.
    var checkedBytes: Data {
        var bytes = Data(Self.magic)
        bytes.append(version)
        bytes.append(secretKind.rawValue)
        bytes.append(contentsOf: secretKind == .password ? [kdf.logN, kdf.blockSize, kdf.parallelism] : [0, 0, 0])
        bytes.append(contentsOf: [0, 0, 0])
        withUnsafeBytes(of: UInt32(chunkSize).bigEndian) { bytes.append(contentsOf: $0) }
        bytes.append(salt)
        return bytes
    }

    /// The whole header, with the key check made with `checkKey`, and the recipient block after it.
    func encoded(checkKey: SymmetricKey) -> Data {
        var bytes = checkedBytes
        bytes.append(contentsOf: HMAC<SHA256>.authenticationCode(for: bytes, using: checkKey))
        bytes.append(contentsOf: SHA256.hash(data: bytes).prefix(16))
        if let recipientBlock { bytes.append(recipientBlock.encoded) }
        return bytes
    }

    /// Reads the header of `file` (its first ``length`` bytes): magic, version, checksum and field bounds,
    /// with no key. Returns the header and its key check.
    static func decode(_ file: Data) throws(BackupFormatError) -> (header: BackupHeader, keyCheck: Data) {
        let start = file.startIndex
        guard file.count >= 4, file[start..<start + 4].elementsEqual(magic) else { throw .notABackup }
        guard file.count >= 5 else { throw .damaged("the file ends inside its header") }
        guard supportedVersions.contains(file[start + 4]) else { throw .unsupportedVersion(file[start + 4]) }
        guard file.count >= length else { throw .damaged("the file ends inside its header") }
        let bytes = Data(file[start..<start + length])  // indices from 0
        guard SHA256.hash(data: bytes[0..<80]).prefix(16).elementsEqual(bytes[80..<96]) else {
            throw .damaged("the header's checksum does not match")
        }
        guard let kind = BackupSecretKind(rawValue: bytes[5]), bytes[9..<12].allSatisfy({ $0 == 0 }) else {
            throw .damaged("the header has an unknown field value")
        }
        let chunkSize = Int(bytes[12..<16].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        guard chunkSizes.contains(chunkSize) else { throw .damaged("the chunk size is out of bounds") }
        let kdf = BackupKDF(logN: bytes[6], blockSize: bytes[7], parallelism: bytes[8])
        if kind == .password { try kdf.validate() }
        var header = BackupHeader(version: bytes[4], secretKind: kind, kdf: kdf, chunkSize: chunkSize, salt: Data(bytes[16..<48]))
        if kind == .recipient {
            header.recipientBlock = try BackupRecipientBlock.decode(Data(file.dropFirst(length)))
        }
        return (header, Data(bytes[48..<80]))
    }
}
