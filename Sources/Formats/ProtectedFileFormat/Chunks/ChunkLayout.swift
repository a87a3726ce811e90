/// Where the chunks of a protected file lie, and how long its content is.
///
/// After the header come the chunks, in order: each is a 12-byte nonce, the ciphertext, and a 16-byte tag.
/// Every chunk holds ``chunkSize`` bytes of content except the last, which holds 1 to ``chunkSize`` bytes;
/// empty content is one empty final chunk. So the file's size alone gives the number of chunks and the
/// content's length, and the last chunk (sealed as final) authenticates that length.
public struct ChunkLayout: Sendable, Hashable {
    /// Content bytes per chunk (64 KiB).
    public static let chunkSize = 65_536
    /// Bytes a chunk adds to its content: nonce and tag.
    public static let overhead = ChunkCipher.nonceSize + ChunkCipher.tagSize
    /// Stored bytes of a full chunk.
    public static let storedChunkSize = chunkSize + overhead

    /// Where the first chunk starts: the header's length.
    public let contentStart: Int
    /// The content's length.
    public let contentLength: Int

    /// The layout of content of `contentLength` bytes after a header of `contentStart` bytes.
    public init(contentStart: Int, contentLength: Int) {
        self.contentStart = contentStart
        self.contentLength = contentLength
    }

    /// The layout a file of `fileSize` bytes with a header of `contentStart` bytes must have; a size no
    /// sequence of chunks gives is damage.
    public init(contentStart: Int, fileSize: Int) throws(FormatFailure) {
        let stored = fileSize - contentStart
        guard stored >= Self.overhead else { throw .damaged(reason: "it ends before its first chunk") }
        let fullChunks = stored / Self.storedChunkSize
        let rest = stored % Self.storedChunkSize
        let length: Int
        if rest == 0 {
            length = fullChunks * Self.chunkSize
        } else {
            // A last chunk must hold at least one byte, unless it is the only chunk.
            guard rest > Self.overhead || (rest == Self.overhead && fullChunks == 0) else {
                throw .damaged(reason: "its size does not end on a chunk")
            }
            length = fullChunks * Self.chunkSize + rest - Self.overhead
        }
        self.init(contentStart: contentStart, contentLength: length)
    }

    /// The number of chunks (at least one).
    public var chunkCount: Int { Swift.max(1, (contentLength + Self.chunkSize - 1) / Self.chunkSize) }

    /// The index of the last chunk.
    public var lastChunk: Int { chunkCount - 1 }

    /// The content bytes chunk `index` holds.
    public func contentLength(ofChunk index: Int) -> Int {
        index < lastChunk ? Self.chunkSize : contentLength - lastChunk * Self.chunkSize
    }

    /// Where chunk `index` starts in the file.
    public func fileOffset(ofChunk index: Int) -> Int { contentStart + index * Self.storedChunkSize }

    /// The file's size.
    public var fileSize: Int { fileOffset(ofChunk: lastChunk) + contentLength(ofChunk: lastChunk) + Self.overhead }
}
