import Crypto
import Foundation
import KeychainModel
import ProtectedFileFormat

/// One protected file's chunks on an open descriptor: reads and writes at any offset, one chunk kept
/// decrypted in memory, and the disk kept so that exactly its last chunk is sealed as final.
///
/// Extending the file seals the old last chunk again as not final; truncating seals the new last chunk as
/// final and cuts the file after it. Each sealing takes a fresh nonce. Not thread-safe: ``ProtectedFileHandle``
/// serialises its calls.
// Sendable only so that a handle can keep it in its Mutex: every use is under that lock.
final class ChunkedFile: @unchecked Sendable {
    /// The decrypted chunk kept in memory.
    private struct CachedChunk {
        var index: Int
        var content: [UInt8]
        var dirty: Bool
    }

    let descriptor: FileDescriptor
    let header: ProtectedFileHeader
    /// The content's keys; nil while dropped (a `complete` file while the keychain is locked).
    private(set) var keys: FileContentKeys?
    /// The content's length, including what is not written yet.
    private(set) var length: Int
    private var cached: CachedChunk?
    /// The chunk sealed as final on disk, if any (none between sealing an old last chunk again and the new one).
    private var diskFinalChunk: Int?
    private var diskChunkCount: Int
    private var diskSize: Int

    private init(descriptor: FileDescriptor, header: ProtectedFileHeader, keys: FileContentKeys, layout: ChunkLayout) {
        self.descriptor = descriptor
        self.header = header
        self.keys = keys
        length = layout.contentLength
        diskFinalChunk = layout.lastChunk
        diskChunkCount = layout.chunkCount
        diskSize = layout.fileSize
    }

    deinit { dropCache() }

    private var path: String { descriptor.path }
    private var contentStart: Int { header.encodedLength }

    // MARK: Creating and opening

    /// Writes a new, empty protected file on `descriptor` (which must be empty), bound to `path` (``BoundPath``: where
    /// it will be read, which an atomic write's temporary file is not): its header and one empty final chunk.
    static func create(on descriptor: FileDescriptor, fileKey: FileKey, boundTo path: String) throws(ProtectedFileError) -> ChunkedFile {
        let header = ProtectedFileHeader(wrappedKey: fileKey.wrapped)
        let keys = FileContentKeys(fileKey: fileKey.key, fileID: header.fileID)
        var bytes = header.encoded(headerKey: keys.header, boundTo: path)
        [UInt8]().withUnsafeBytes { ChunkCipher.seal($0, index: 0, isFinal: true, key: keys.content, into: &bytes) }
        try descriptor.write(bytes, at: 0)
        return ChunkedFile(
            descriptor: descriptor, header: header, keys: keys, layout: ChunkLayout(contentStart: header.encodedLength, contentLength: 0))
    }

    /// The header at the start of `descriptor`'s file, not yet authenticated.
    static func readHeader(_ descriptor: FileDescriptor) throws(ProtectedFileError) -> (ProtectedFileHeader, Data) {
        let bytes = Data(try descriptor.read(count: ProtectedFileHeader.maximumLength, at: 0))
        do {
            return (try ProtectedFileHeader.parse(bytes), bytes)
        } catch {
            throw corrupt(error, path: descriptor.path)
        }
    }

    /// Opens the file of `header` with its unwrapped key: the header is authenticated for the file at `path`
    /// (``BoundPath``) and the last chunk opened, which authenticates the content's length.
    static func open(
        _ descriptor: FileDescriptor, header: ProtectedFileHeader, headerBytes: Data, fileKey: FileKey, boundTo path: String
    ) throws(ProtectedFileError) -> ChunkedFile {
        let keys = FileContentKeys(fileKey: fileKey.key, fileID: header.fileID)
        do {
            try header.authenticate(headerBytes, with: keys.header, boundTo: path)
            let layout = try ChunkLayout(contentStart: header.encodedLength, fileSize: try descriptor.size())
            let file = ChunkedFile(descriptor: descriptor, header: header, keys: keys, layout: layout)
            _ = try file.openStoredChunk(layout.lastChunk)
            return file
        } catch let error as FormatFailure {
            throw corrupt(error, path: descriptor.path)
        } catch let error as ProtectedFileError {
            throw error
        } catch {
            throw ProtectedFileError(.fileReadUnknown, path: descriptor.path, reason: "\(error)")
        }
    }

    static func corrupt(_ failure: FormatFailure, path: String) -> ProtectedFileError {
        ProtectedFileError(.fileReadCorruptFile, path: path, reason: "the file cannot be read: \(failure)")
    }

    // MARK: Keys

    /// Takes the content's keys again (after ``dropKeys()``).
    func restoreKeys(_ fileKey: FileKey) {
        keys = FileContentKeys(fileKey: fileKey.key, fileID: header.fileID)
    }

    /// Forgets the keys and the decrypted chunk; a chunk not yet written is written first while the key is still here.
    func dropKeys() {
        try? flush()
        dropCache()
        keys = nil
    }

    private func requireKeys() throws(ProtectedFileError) -> FileContentKeys {
        guard let keys else {
            throw ProtectedFileError(.fileReadNoPermission, path: path, reason: "the file's key was dropped when the keychain locked")
        }
        return keys
    }

    // MARK: Reading

    /// Up to `count` bytes of content at `offset` (fewer at the end).
    func read(at offset: Int, count: Int) throws(ProtectedFileError) -> Data {
        let end = min(length, offset + max(0, count))
        guard offset < end else { return Data() }
        var output = Data(capacity: end - offset)
        var position = offset
        while position < end {
            let index = position / ChunkLayout.chunkSize
            let start = position - index * ChunkLayout.chunkSize
            let stop = min(ChunkLayout.chunkSize, end - index * ChunkLayout.chunkSize)
            if let cached, cached.index == index {
                output.append(contentsOf: cached.content[start..<stop])
            } else if start == 0 && stop == ChunkLayout.chunkSize {
                // A whole chunk: straight to the output, without keeping it.
                output.append(try openStoredChunkReporting(index))
            } else {
                try load(index)
                output.append(contentsOf: cached!.content[start..<stop])
            }
            position = index * ChunkLayout.chunkSize + stop
        }
        return output
    }

    // MARK: Writing

    /// Writes `bytes` at `offset`; a gap after the end is filled with zeros.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(ProtectedFileError) {
        if offset > length { try fillZeros(to: offset) }
        var done = 0
        while done < bytes.count {
            let position = offset + done
            let index = position / ChunkLayout.chunkSize
            let start = position - index * ChunkLayout.chunkSize
            let take = min(ChunkLayout.chunkSize - start, bytes.count - done)
            // The length grows before the next chunk is loaded, so the chunk left behind is sealed as not final.
            length = max(length, position + take)
            try load(index)
            if cached!.content.count < start + take {
                cached!.content.append(contentsOf: repeatElement(0, count: start + take - cached!.content.count))
            }
            cached!.content.withUnsafeMutableBytes { target in
                target.baseAddress!.advanced(by: start).copyMemory(from: bytes.baseAddress! + done, byteCount: take)
            }
            cached!.dirty = true
            done += take
        }
    }

    /// Sets the content's length: cut, or extended with zeros.
    func truncate(to newLength: Int) throws(ProtectedFileError) {
        if newLength >= length {
            try fillZeros(to: newLength)
            return
        }
        try flush()
        dropCache()
        length = newLength
        let last = ChunkLayout(contentStart: contentStart, contentLength: newLength).lastChunk
        try load(last)
        let keep = newLength - last * ChunkLayout.chunkSize
        cached!.content.removeSubrange(keep...)
        cached!.dirty = true
        try flush()
    }

    /// Writes the chunk kept in memory if it changed.
    func flush() throws(ProtectedFileError) {
        guard var chunk = cached, chunk.dirty else { return }
        let keys = try requireKeys()
        let layout = ChunkLayout(contentStart: contentStart, contentLength: length)
        let isFinal = chunk.index == layout.lastChunk
        var stored = Data(capacity: chunk.content.count + ChunkLayout.overhead)
        chunk.content.withUnsafeBytes { ChunkCipher.seal($0, index: chunk.index, isFinal: isFinal, key: keys.content, into: &stored) }
        let offset = layout.fileOffset(ofChunk: chunk.index)
        try descriptor.write(stored, at: offset)
        if isFinal {
            diskSize = offset + stored.count
            try descriptor.truncate(to: diskSize)
            diskFinalChunk = chunk.index
            diskChunkCount = chunk.index + 1
        } else {
            if diskFinalChunk == chunk.index { diskFinalChunk = nil }
            diskChunkCount = max(diskChunkCount, chunk.index + 1)
            diskSize = max(diskSize, offset + stored.count)
        }
        chunk.dirty = false
        cached = chunk
    }

    /// Flushes and closes the descriptor; the decrypted chunk is zeroized.
    func close() throws(ProtectedFileError) {
        defer {
            dropCache()
            keys = nil
            descriptor.close()
        }
        try flush()
    }

    // MARK: Chunks

    private func fillZeros(to newLength: Int) throws(ProtectedFileError) {
        let zeros = [UInt8](repeating: 0, count: ChunkLayout.chunkSize)
        while length < newLength {
            let take = min(newLength - length, ChunkLayout.chunkSize - length % ChunkLayout.chunkSize)
            try withBytes(of: zeros) { (buffer) throws(ProtectedFileError) in
                try write(UnsafeRawBufferPointer(rebasing: buffer[0..<take]), at: length)
            }
        }
    }

    /// Makes chunk `index` the one in memory (writing the previous one if it changed).
    private func load(_ index: Int) throws(ProtectedFileError) {
        if cached?.index == index { return }
        try flush()
        dropCache()
        let content = index < diskChunkCount ? [UInt8](try openStoredChunkReporting(index)) : []
        cached = CachedChunk(index: index, content: content, dirty: false)
    }

    private func openStoredChunkReporting(_ index: Int) throws(ProtectedFileError) -> Data {
        do {
            return try openStoredChunk(index)
        } catch let error as FormatFailure {
            throw Self.corrupt(error, path: path)
        } catch let error as ProtectedFileError {
            throw error
        } catch {
            throw ProtectedFileError(.fileReadUnknown, path: path, reason: "\(error)")
        }
    }

    /// The content of chunk `index` as the disk holds it.
    private func openStoredChunk(_ index: Int) throws -> Data {
        let keys = try requireKeys()
        let offset = contentStart + index * ChunkLayout.storedChunkSize
        let isFinal = index == diskFinalChunk
        let storedLength = min(ChunkLayout.storedChunkSize, diskSize - offset)
        let stored = try descriptor.read(count: storedLength, at: offset)
        guard stored.count == storedLength else { throw FormatFailure.damaged(reason: "chunk \(index) is cut short") }
        return try stored.withUnsafeBytes { bytes throws(FormatFailure) in
            try ChunkCipher.open(bytes, index: index, isFinal: isFinal, key: keys.content)
        }
    }

    /// Zeroizes and forgets the decrypted chunk. The cache lets go of it first, so that the bytes zeroized are the
    /// cache's own and not a copy made for the write.
    private func dropCache() {
        guard var chunk = cached else { return }
        cached = nil
        chunk.content.zeroize()
    }
}
