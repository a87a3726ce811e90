import Crypto
import Foundation
import KeychainModel

/// Opens a backup file chunk by chunk, read through a function rather than held whole: a backup of any size in
/// the memory of one chunk. Made from the file's length and its header, it checks the header's checksum, the
/// secret and that the length fits the chunk layout; ``forEachChunk(read:_:)`` then authenticates and decrypts
/// each chunk in order, and may be called more than once (to check the whole file before using any of it).
public struct BackupFileOpener {
    /// The file's header.
    public let header: BackupHeader
    /// The plaintext's length.
    public let plaintextCount: Int
    private let keys: BackupKeys
    private let headerBytes: Data
    private let chunkCount: Int
    private let sealedChunk: Int

    /// Checks the header (`prefix`: the file's first ``BackupHeader/maximumLength`` bytes or all of a shorter file),
    /// the secret (``BackupFormatError/wrongSecret(_:)``) and the layout a file of `fileLength` bytes has
    /// (``BackupFormatError/damaged(_:)`` when it is cut short or extended).
    public init(fileLength: Int, prefix: Data, secret: BackupSecret) throws(BackupFormatError) {
        let (header, keyCheck) = try BackupHeader.decode(prefix)
        let keys = try BackupKeys(secret, header: header)
        let headerBytes = Data(prefix.prefix(header.encodedLength))
        guard HMAC<SHA256>.isValidAuthenticationCode(keyCheck, authenticating: headerBytes.prefix(BackupHeader.checkedLength), using: keys.check)
        else { throw .wrongSecret(header.secretKind) }
        let body = fileLength - header.encodedLength
        let overhead = BackupFile.nonceLength + BackupFile.tagLength
        let sealedChunk = header.chunkSize + overhead
        let fullChunks = body / sealedChunk
        let rest = body % sealedChunk
        // The last chunk is short (its overhead and at least one byte) or full, or the only, empty one.
        if rest == 0, fullChunks > 0 {
            chunkCount = fullChunks
        } else if rest >= overhead + (fullChunks == 0 ? 0 : 1) {
            chunkCount = fullChunks + 1
        } else {
            throw .damaged("the file's length does not match its chunks (cut short or extended)")
        }
        self.header = header
        self.keys = keys
        self.headerBytes = headerBytes
        self.sealedChunk = sealedChunk
        plaintextCount = body - chunkCount * overhead
    }

    /// Reads, authenticates and decrypts every chunk in order, calling `body` with each chunk's plaintext (valid
    /// only during the call, then zeroized). `read(offset, count)` returns the file's bytes in that range.
    /// A chunk that does not authenticate throws ``BackupFormatError/damaged(_:)``; errors of `read` and
    /// `body` propagate unchanged.
    public func forEachChunk(read: (_ offset: Int, _ count: Int) throws -> Data, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let overhead = BackupFile.nonceLength + BackupFile.tagLength
        for index in 0..<chunkCount {
            let offset = header.encodedLength + index * sealedChunk
            let length = index == chunkCount - 1 ? plaintextCount - index * header.chunkSize + overhead : sealedChunk
            let sealed = try read(offset, length)
            guard sealed.count == length else { throw BackupFormatError.damaged("the file changed while it was read") }
            var plain: Data
            do {
                let start = sealed.startIndex
                let box = try AES.GCM.SealedBox(
                    nonce: AES.GCM.Nonce(data: sealed[start..<start + BackupFile.nonceLength]),
                    ciphertext: sealed[start + BackupFile.nonceLength..<sealed.endIndex - BackupFile.tagLength],
                    tag: sealed[sealed.endIndex - BackupFile.tagLength..<sealed.endIndex])
                plain = try AES.GCM.open(
                    box, using: keys.content,
                    authenticating: BackupFile.associatedData(headerBytes, index: index, final: index == chunkCount - 1))
            } catch {
                throw BackupFormatError.damaged("chunk \(index + 1) of \(chunkCount) does not authenticate")
            }
            defer { plain.resetBytes(in: 0..<plain.count) }
            try plain.withUnsafeBytes { try body($0) }
        }
    }
}
