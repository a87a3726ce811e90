import Foundation
import KeychainModel
import ProtectedFileFormat

#if canImport(Glibc)
import Glibc
#endif

extension ProtectedFile {
    /// Moves the protected file at `source` to `destination`, replacing any file there.
    ///
    /// A protected file opens only at the path it was written for, so that another protected file copied over it is
    /// refused rather than read (`.fileReadCorruptFile`); `mv` leaves a file that no longer opens. This writes the
    /// header again for the new path and copies the encrypted chunks as they are, beside the destination, makes it
    /// durable, renames it into place and only then removes the source: a crash leaves the file at one path or at
    /// both. The file's class key must be available, to unwrap its key; the content is not decrypted. A file of the
    /// first format, bound to no path, is bound to its new one.
    public static func move(from source: URL, to destination: URL, keychain: Keychain = .shared) throws(ProtectedFileError) {
        let sourcePath = BoundPath.of(source.path)
        let destinationPath = BoundPath.of(destination.path)
        guard sourcePath != destinationPath else { return }
        let descriptor = try FileDescriptor.open(source.path, flags: O_RDONLY, writing: false)
        let (header, headerBytes) = try ChunkedFile.readHeader(descriptor)
        let fileKey = try FileKeyService(client: keychain.client).unwrap(header.wrappedKey, path: source.path, writing: false)
        let opened = try ChunkedFile.open(descriptor, header: header, headerBytes: headerBytes, fileKey: fileKey, boundTo: sourcePath)
        defer { try? opened.close() }
        let keys = FileContentKeys(fileKey: fileKey.key, fileID: header.fileID)
        let moved = header.current.encoded(headerKey: keys.header, boundTo: destinationPath)

        let replacement = AtomicReplacement(destination: destination.path)
        let target = try replacement.create()
        do throws(ProtectedFileError) {
            try target.write(moved, at: 0)
            let size = try descriptor.size()
            var offset = header.encodedLength
            while offset < size {
                let piece = try descriptor.read(count: min(1 << 20, size - offset), at: offset)
                guard !piece.isEmpty else { break }
                try target.write(Data(piece), at: offset)
                offset += piece.count
            }
            try replacement.commit(target)
        } catch {
            replacement.abandon(target)
            throw error
        }
        guard unlink(source.path) == 0 else {
            throw FileDescriptor.error(errno, path: source.path, writing: true, doing: "remove the moved file from its old place")
        }
    }
}
