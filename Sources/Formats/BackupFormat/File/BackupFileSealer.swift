import Crypto
import Foundation
import KeychainModel

/// Seals a backup's plaintext as it comes, chunk by chunk (``BackupFile``'s layout), handing each sealed chunk to
/// `write`: a backup of any size in the memory of one chunk. The header is written first, when the sealer is
/// made; a full chunk is held until more bytes come or ``finish()`` marks it final.
public final class BackupFileSealer {
    private let keys: BackupKeys
    private let headerBytes: Data
    private let chunk: SecretScratch
    private let write: (UnsafeRawBufferPointer) throws -> Void
    private var index = 0
    private var finished = false
    /// The plaintext bytes given so far.
    public private(set) var plaintextCount = 0
    /// The file bytes written so far (header and sealed chunks).
    public private(set) var fileCount = 0

    /// Derives the keys from `secret` (scrypt with `kdf` for a password), then writes the header of format
    /// `version` through `write`, whose errors propagate unchanged.
    public init(
        secret: BackupSecret, kdf: BackupKDF = .standard, version: UInt8 = BackupHeader.itemsOnlyVersion,
        write: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        precondition(BackupHeader.supportedVersions.contains(version), "backup format version")
        var salt = Data(count: 32)
        salt.withUnsafeMutableBytes { bytes in
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        }
        var header = BackupHeader(version: version, secretKind: secret.kind, kdf: kdf, chunkSize: BackupHeader.defaultChunkSize, salt: salt)
        var encapsulated: SymmetricKey?
        switch secret {
        case .recipient(let recipient):
            let result = try recipient.publicKey.encapsulate()
            header.recipientBlock = BackupRecipientBlock(keyID: recipient.keyID, encapsulated: result.encapsulated)
            encapsulated = result.sharedSecret
        case .decapsulated:
            throw BackupFormatError.damaged("a backup for a recipient is sealed with the recipient's public key")
        case .password, .recoveryKey: break
        }
        keys = try BackupKeys(secret, header: header, master: encapsulated)
        headerBytes = header.encoded(checkKey: keys.check)
        chunk = SecretScratch(capacity: header.chunkSize)
        self.write = write
        try headerBytes.withUnsafeBytes { try write($0) }
        fileCount = headerBytes.count
    }

    /// Seals `bytes` after what came before.
    public func append(_ bytes: UnsafeRawBufferPointer) throws {
        precondition(!finished, "appending to a finished backup")
        var rest = bytes
        while !rest.isEmpty {
            if chunk.count == chunk.capacity { try sealChunk(final: false) }
            let taken = min(chunk.capacity - chunk.count, rest.count)
            chunk.append(UnsafeRawBufferPointer(rebasing: rest[0..<taken]))
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
            plaintextCount += taken
        }
    }

    /// Seals the last chunk (possibly empty) as final. The sealer takes nothing after.
    public func finish() throws {
        precondition(!finished, "finishing a backup twice")
        try sealChunk(final: true)
        finished = true
    }

    private func sealChunk(final: Bool) throws {
        let box: AES.GCM.SealedBox
        do {
            box = try chunk.withUnsafeBytes { plaintext in
                try AES.GCM.seal(plaintext, using: keys.content, authenticating: BackupFile.associatedData(headerBytes, index: index, final: final))
            }
        } catch {
            throw BackupFormatError.damaged("sealing failed")
        }
        chunk.removeFirst(chunk.count)
        index += 1
        for part in [Data(box.nonce), box.ciphertext, box.tag] {
            try part.withUnsafeBytes { try write($0) }
            fileCount += part.count
        }
    }
}
