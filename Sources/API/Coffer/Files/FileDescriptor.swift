import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An open file, closed exactly once (by ``close()`` or when released), with whole reads and writes at offsets.
// Used by one owner at a time (a handle, under its lock; a call's own scope).
final class FileDescriptor: @unchecked Sendable {
    private var descriptor: Int32
    /// The path it was opened with, for errors.
    let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { if descriptor >= 0 { Glibc.close(descriptor) } }

    /// Opens `path` with `flags` (`O_CLOEXEC | O_NOFOLLOW` are added); a new file gets mode 0600.
    static func open(_ path: String, flags: Int32, writing: Bool) throws(ProtectedFileError) -> FileDescriptor {
        let descriptor = Glibc.open(path, flags | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw error(errno, path: path, writing: writing, doing: "open") }
        return FileDescriptor(descriptor: descriptor, path: path)
    }

    /// The file's size.
    func size() throws(ProtectedFileError) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.error(errno, path: path, writing: false, doing: "stat") }
        return Int(status.st_size)
    }

    /// Reads up to `count` bytes at `offset` (fewer only at the end of the file).
    func read(count: Int, at offset: Int) throws(ProtectedFileError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let result = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if result < 0 {
                if errno == EINTR { continue }
                throw Self.error(errno, path: path, writing: false, doing: "read")
            }
            if result == 0 { break }
            done += result
        }
        if done < count { buffer.removeSubrange(done...) }
        return buffer
    }

    /// Writes all of `bytes` at `offset`.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(ProtectedFileError) {
        var done = 0
        while done < bytes.count {
            let result = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if result < 0 {
                if errno == EINTR { continue }
                throw Self.error(errno, path: path, writing: true, doing: "write")
            }
            done += result
        }
    }

    /// Writes all of `data` at `offset`.
    func write(_ data: Data, at offset: Int) throws(ProtectedFileError) {
        var failure: ProtectedFileError?
        data.withUnsafeBytes { bytes in
            do throws(ProtectedFileError) { try write(bytes, at: offset) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Cuts the file to `size` bytes.
    func truncate(to size: Int) throws(ProtectedFileError) {
        guard ftruncate(descriptor, off_t(size)) == 0 else { throw Self.error(errno, path: path, writing: true, doing: "truncate") }
    }

    /// Makes what was written durable.
    func synchronize() throws(ProtectedFileError) {
        guard fsync(descriptor) == 0 else { throw Self.error(errno, path: path, writing: true, doing: "synchronize") }
    }

    /// Closes the descriptor; later calls do nothing.
    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    /// Foundation's error for `code` (an `errno`).
    static func error(_ code: Int32, path: String, writing: Bool, doing action: String) -> ProtectedFileError {
        let text = String(cString: strerror(code))
        let cocoa: CocoaError.Code =
            switch code {
            case ENOENT: writing ? .fileNoSuchFile : .fileReadNoSuchFile
            case EACCES, EPERM: writing ? .fileWriteNoPermission : .fileReadNoPermission
            case EEXIST: .fileWriteFileExists
            case ENOSPC, EDQUOT: .fileWriteOutOfSpace
            case EROFS: .fileWriteVolumeReadOnly
            default: writing ? .fileWriteUnknown : .fileReadUnknown
            }
        return ProtectedFileError(cocoa, path: path, reason: "cannot \(action) the file: \(text)")
    }
}

/// Calls `body` with the bytes of `bytes`, keeping the typed error (`withUnsafeBytes` only rethrows `any Error`).
func withBytes<Result>(
    of bytes: some ContiguousBytes, _ body: (UnsafeRawBufferPointer) throws(ProtectedFileError) -> Result
) throws(ProtectedFileError) -> Result {
    let outcome = bytes.withUnsafeBytes { buffer in Swift.Result { () throws(ProtectedFileError) in try body(buffer) } }
    return try outcome.get()
}
