import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reading a backup file whole, and writing one durably: a new file (mode 0600, created exclusively) beside
/// its destination, synced, renamed over it, and the folder synced, so a crash leaves the old file or the new one.
enum BackupFileIO {
    /// The whole file at `path`.
    static func read(_ path: String) throws(BackupError) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw failure("cannot open", path) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("cannot read", path) }
        var data = Data(count: Int(status.st_size))
        let total = data.count
        var done = 0
        var readError: Int32 = 0
        data.withUnsafeMutableBytes { bytes in
            while done < total {
                let result = Glibc.read(descriptor, bytes.baseAddress! + done, total - done)
                if result < 0, errno == EINTR { continue }
                if result < 0 { readError = errno; return }
                if result == 0 { return }
                done += result
            }
        }
        guard readError == 0 else { throw failure("cannot read", path, code: readError) }
        if done < total { data.removeSubrange(done...) }
        return data
    }

    /// Writes `data` to `path` durably and atomically.
    static func write(_ data: Data, to path: String) throws(BackupError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).coffer-\(UInt32.random(in: .min ... .max))").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create a file in", folder) }
        var writeError: Int32 = 0
        data.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let result = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                if result < 0, errno == EINTR { continue }
                if result < 0 { writeError = errno; return }
                done += result
            }
        }
        if writeError == 0, fchmod(descriptor, 0o600) != 0 || fsync(descriptor) != 0 { writeError = errno }
        close(descriptor)
        guard writeError == 0 else {
            unlink(temporary)
            throw failure("cannot write", path, code: writeError)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure("cannot replace", path, code: code)
        }
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    private static func failure(_ doing: String, _ path: String, code: Int32 = errno) -> BackupError {
        BackupError(.file, "\(doing) \(path): \(String(cString: strerror(code)))")
    }
}
