import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A backup file open for reading in pieces (`pread`), so that a backup of any size is read a chunk at a time.
final class BackupFileReader {
    /// The file's length when it was opened.
    let length: Int
    private let descriptor: Int32
    private let path: String

    /// Opens `path` (not following a symbolic link).
    init(_ path: String) throws(BackupError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw Self.failure("cannot open", path) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let error = Self.failure("cannot read", path)
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.path = path
        length = Int(status.st_size)
    }

    deinit { close(descriptor) }

    /// The `count` bytes at `offset` (fewer only where the file ends).
    func read(at offset: Int, count: Int) throws(BackupError) -> Data {
        var data = Data(count: count)
        var done = 0
        var readError: Int32 = 0
        data.withUnsafeMutableBytes { bytes in
            while done < count {
                let result = pread(descriptor, bytes.baseAddress! + done, count - done, off_t(offset + done))
                if result < 0, errno == EINTR { continue }
                if result < 0 { readError = errno; return }
                if result == 0 { return }
                done += result
            }
        }
        guard readError == 0 else { throw Self.failure("cannot read", path, code: readError) }
        if done < count { data.removeSubrange(done...) }
        return data
    }

    private static func failure(_ doing: String, _ path: String, code: Int32 = errno) -> BackupError {
        BackupError(.file, "\(doing) \(path): \(String(cString: strerror(code)))")
    }
}
