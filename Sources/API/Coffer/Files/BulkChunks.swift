import Foundation
import KeychainModel
import ProtectedFileFormat

/// Whole-file encryption and decryption in batches of chunks: one `pwrite` or `pread` per 16 chunks (1 MiB),
/// each chunk sealed from or opened into its place without an intermediate copy of the content.
enum BulkChunks {
    /// Chunks per read or write.
    static let batch = 16

    /// Writes a complete protected file on the empty `descriptor`, bound to `path` (``BoundPath``: where it will be
    /// read): header and every chunk of `content`.
    static func write(
        _ content: UnsafeRawBufferPointer, fileKey: FileKey, to descriptor: FileDescriptor, boundTo path: String,
        progress: ((Int) -> Void)? = nil
    ) throws(ProtectedFileError) {
        let header = ProtectedFileHeader(wrappedKey: fileKey.wrapped)
        let keys = FileContentKeys(fileKey: fileKey.key, fileID: header.fileID)
        let layout = ChunkLayout(contentStart: header.encodedLength, contentLength: content.count)
        try descriptor.write(header.encoded(headerKey: keys.header, boundTo: path), at: 0)
        var index = 0
        var buffer = Data(capacity: batch * ChunkLayout.storedChunkSize)
        while index < layout.chunkCount {
            buffer.removeAll(keepingCapacity: true)
            let first = index
            while index < layout.chunkCount && index - first < batch {
                let start = index * ChunkLayout.chunkSize
                let piece = UnsafeRawBufferPointer(rebasing: content[start..<(start + layout.contentLength(ofChunk: index))])
                ChunkCipher.seal(piece, index: index, isFinal: index == layout.lastChunk, key: keys.content, into: &buffer)
                index += 1
            }
            try descriptor.write(buffer, at: layout.fileOffset(ofChunk: first))
            progress?(min(content.count, index * ChunkLayout.chunkSize))
        }
    }

    /// The whole content of an opened file.
    static func readAll(_ file: ChunkedFile, progress: ((Int) -> Void)? = nil) throws(ProtectedFileError) -> Data {
        var output = Data(capacity: file.length)
        var offset = 0
        let step = batch * ChunkLayout.chunkSize
        repeat {
            output.append(try file.read(at: offset, count: step))
            offset += step
            progress?(min(offset, file.length))
        } while offset < file.length
        return output
    }
}
