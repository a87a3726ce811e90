import Crypto
import Foundation
import KeychainModel

/// A backup file: the ``BackupHeader``, then the plaintext (a ``BackupRecordStream``) in chunks of
/// ``BackupHeader/chunkSize`` bytes, each `nonce (12) ‖ AES-256-GCM ciphertext ‖ tag (16)` with a fresh random
/// nonce, and as associated data the whole header, the chunk's index (UInt64 BE) and a final flag.
///
/// Only the last chunk (1 byte to a full chunk, or one empty chunk) is final, so the file's length gives
/// the layout, and cutting the file short, extending it or reordering chunks fails authentication: the file
/// is authenticated as a whole, and ``open(_:with:progress:)`` checks all of it before it returns anything.
public enum BackupFile {
    static let nonceLength = 12
    static let tagLength = 16

    /// Seals `plaintext` under `secret` with format `version` (``BackupHeader/itemsOnlyVersion`` for a
    /// ``BackupRecordStream``, ``BackupHeader/currentVersion`` for a ``BackupPayload``). `progress` is called
    /// with the bytes sealed so far and the total.
    public static func seal(
        _ plaintext: SecretBytes, with secret: BackupSecret, kdf: BackupKDF = .standard,
        version: UInt8 = BackupHeader.itemsOnlyVersion, progress: (Int, Int) -> Void = { _, _ in }
    ) throws(BackupFormatError) -> Data {
        precondition(BackupHeader.supportedVersions.contains(version), "backup format version")
        var salt = Data(count: 32)
        salt.withUnsafeMutableBytes { bytes in
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        }
        let header = BackupHeader(version: version, secretKind: secret.kind, kdf: kdf, chunkSize: BackupHeader.defaultChunkSize, salt: salt)
        let keys = try BackupKeys(secret, header: header)
        let headerBytes = header.encoded(checkKey: keys.check)
        let chunkSize = header.chunkSize
        let chunkCount = max(1, (plaintext.count + chunkSize - 1) / chunkSize)
        var file = Data(capacity: headerBytes.count + plaintext.count + chunkCount * (nonceLength + tagLength))
        file.append(headerBytes)
        do {
            try plaintext.withUnsafeBytes { bytes in
                for index in 0..<chunkCount {
                    let range = index * chunkSize..<min(plaintext.count, (index + 1) * chunkSize)
                    let box = try AES.GCM.seal(
                        UnsafeRawBufferPointer(rebasing: bytes[range]), using: keys.content,
                        authenticating: associatedData(headerBytes, index: index, final: index == chunkCount - 1))
                    file.append(contentsOf: box.nonce)
                    file.append(box.ciphertext)
                    file.append(box.tag)
                    progress(range.upperBound, plaintext.count)
                }
            }
        } catch {
            throw .damaged("sealing failed")
        }
        return file
    }

    /// What protects `file`, read from its header without any key (to know what to ask the person for).
    public static func header(of file: Data) throws(BackupFormatError) -> BackupHeader {
        try BackupHeader.decode(file).header
    }

    /// Checks and decrypts all of `file`: the header's checksum, the secret (``BackupFormatError/wrongSecret(_:)``),
    /// then every chunk and the layout (``BackupFormatError/damaged(_:)``). Nothing is returned unless the
    /// whole file is intact. `progress` is called with the bytes opened so far and the total.
    public static func open(
        _ file: Data, with secret: BackupSecret, progress: (Int, Int) -> Void = { _, _ in }
    ) throws(BackupFormatError) -> SecretBytes {
        let (header, keyCheck) = try BackupHeader.decode(file)
        let keys = try BackupKeys(secret, header: header)
        let headerBytes = Data(file.prefix(BackupHeader.length))
        guard HMAC<SHA256>.isValidAuthenticationCode(keyCheck, authenticating: headerBytes.prefix(BackupHeader.checkedLength), using: keys.check)
        else { throw .wrongSecret(header.secretKind) }
        let body = file.count - BackupHeader.length
        let sealedChunk = header.chunkSize + nonceLength + tagLength
        let fullChunks = body / sealedChunk
        let rest = body % sealedChunk
        // The last chunk is short (its overhead and at least one byte) or full, or the only, empty one.
        let chunkCount: Int
        if rest == 0, fullChunks > 0 {
            chunkCount = fullChunks
        } else if rest >= nonceLength + tagLength + (fullChunks == 0 ? 0 : 1) {
            chunkCount = fullChunks + 1
        } else {
            throw .damaged("the file's length does not match its chunks (cut short or extended)")
        }
        let plaintextLength = body - chunkCount * (nonceLength + tagLength)
        do {
            return try decrypt(file, chunkCount: chunkCount, plaintextLength: plaintextLength, sealedChunk: sealedChunk, keys: keys, headerBytes: headerBytes, progress: progress)
        } catch let error as BackupFormatError {
            throw error
        } catch {
            throw .damaged("the content does not authenticate")
        }
    }

    private static func decrypt(
        _ file: Data, chunkCount: Int, plaintextLength: Int, sealedChunk: Int, keys: BackupKeys, headerBytes: Data,
        progress: (Int, Int) -> Void
    ) throws -> SecretBytes {
        let start = file.startIndex + BackupHeader.length
        return try SecretBytes(capacity: plaintextLength) { buffer in
            var written = 0
            for index in 0..<chunkCount {
                let chunkStart = start + index * sealedChunk
                let chunkEnd = min(file.endIndex, chunkStart + sealedChunk)
                do {
                    let box = try AES.GCM.SealedBox(
                        nonce: AES.GCM.Nonce(data: file[chunkStart..<chunkStart + nonceLength]),
                        ciphertext: file[chunkStart + nonceLength..<chunkEnd - tagLength],
                        tag: file[chunkEnd - tagLength..<chunkEnd])
                    var plain = try AES.GCM.open(
                        box, using: keys.content, authenticating: associatedData(headerBytes, index: index, final: index == chunkCount - 1))
                    plain.withUnsafeBytes { bytes in
                        UnsafeMutableRawBufferPointer(rebasing: buffer[written..<written + bytes.count]).copyMemory(from: bytes)
                    }
                    written += plain.count
                    plain.resetBytes(in: 0..<plain.count)
                } catch {
                    throw BackupFormatError.damaged("chunk \(index + 1) of \(chunkCount) does not authenticate")
                }
                progress(written, plaintextLength)
            }
            return written
        }
    }

    private static func associatedData(_ header: Data, index: Int, final: Bool) -> Data {
        var data = header
        withUnsafeBytes(of: UInt64(index).bigEndian) { data.append(contentsOf: $0) }
        data.append(final ? 1 : 0)
        return data
    }
}
