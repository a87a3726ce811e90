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
    /// with the bytes sealed so far and the total. (``BackupFileSealer`` seals as the bytes come, into a file.)
    public static func seal(
        _ plaintext: SecretBytes, with secret: BackupSecret, kdf: BackupKDF = .standard,
        version: UInt8 = BackupHeader.itemsOnlyVersion, progress: (Int, Int) -> Void = { _, _ in }
    ) throws(BackupFormatError) -> Data {
        let chunkSize = BackupHeader.defaultChunkSize
        let chunkCount = max(1, (plaintext.count + chunkSize - 1) / chunkSize)
        var file = Data(capacity: BackupHeader.length + plaintext.count + chunkCount * (nonceLength + tagLength))
        do {
            let sealer = try BackupFileSealer(secret: secret, kdf: kdf, version: version) { file.append(contentsOf: $0) }
            try plaintext.withUnsafeBytes { bytes in
                var offset = 0
                repeat {
                    let end = min(bytes.count, offset + chunkSize)
                    try sealer.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                    offset = end
                    progress(offset, bytes.count)
                } while offset < bytes.count
            }
            try sealer.finish()
        } catch let error as BackupFormatError {
            throw error
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
    /// (``BackupFileOpener`` opens a file chunk by chunk without holding it.)
    public static func open(
        _ file: Data, with secret: BackupSecret, progress: (Int, Int) -> Void = { _, _ in }
    ) throws(BackupFormatError) -> SecretBytes {
        let opener = try BackupFileOpener(fileLength: file.count, prefix: file.prefix(BackupHeader.maximumLength), secret: secret)
        let total = opener.plaintextCount
        do {
            return try SecretBytes(capacity: total) { buffer in
                var written = 0
                try opener.forEachChunk(read: { offset, count in file[file.startIndex + offset..<file.startIndex + offset + count] }) { plain in
                    UnsafeMutableRawBufferPointer(rebasing: buffer[written..<written + plain.count]).copyMemory(from: plain)
                    written += plain.count
                    progress(written, total)
                }
                return written
            }
        } catch let error as BackupFormatError {
            throw error
        } catch {
            throw .damaged("the content does not authenticate")
        }
    }

    static func associatedData(_ header: Data, index: Int, final: Bool) -> Data {
        var data = header
        withUnsafeBytes(of: UInt64(index).bigEndian) { data.append(contentsOf: $0) }
        data.append(final ? 1 : 0)
        return data
    }
}
