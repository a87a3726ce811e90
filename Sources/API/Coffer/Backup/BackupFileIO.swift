import BackupFormat
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reading a backup file whole (``BackupFileReader`` reads it in pieces), and writing one durably: a new file (mode 0600, created exclusively) beside
/// its destination, synced, renamed over it, and the folder synced, so a crash leaves the old file or the new one.
enum BackupFileIO {
    /// The whole file at `path`.
    static func read(_ path: String) throws(BackupError) -> Data {
        let reader = try BackupFileReader(path)
        return try reader.read(at: 0, count: reader.length)
    }

    /// Writes `data` to `path` durably and atomically.
    static func write(_ data: Data, to path: String) throws(BackupError) {
        try writeAtomically(to: path) { write in try data.withUnsafeBytes { try write($0) } }
    }

    /// Writes what `fill` gives (through the function it is handed, any number of times) to `path` durably and
    /// atomically: into a new file beside it (0600), synced, then renamed over it and the folder synced. When
    /// `fill` throws, the new file is removed, `path` is left as it was, and the error propagates.
    static func writeAtomically<Value>(
        to path: String, _ fill: (_ write: @escaping (UnsafeRawBufferPointer) throws -> Void) throws -> Value
    ) throws(BackupError) -> Value {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).coffer-\(UInt32.random(in: .min ... .max))"
        ).path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create a file in", folder) }
        let value: Value
        do {
            value = try fill { bytes in
                var done = 0
                while done < bytes.count {
                    let result = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                    if result < 0, errno == EINTR { continue }
                    if result < 0 { throw failure("cannot write", path) }
                    done += result
                }
            }
            if fchmod(descriptor, 0o600) != 0 || fsync(descriptor) != 0 { throw failure("cannot write", path) }
        } catch {
            close(descriptor)
            unlink(temporary)
            if let error = error as? BackupError { throw error }
            if let error = error as? BackupFormatError { throw BackupError(error) }
            throw BackupError(.file, "cannot write \(path): \(error)")
        }
        close(descriptor)
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
        return value
    }

    private static func failure(_ doing: String, _ path: String, code: Int32 = errno) -> BackupError {
        BackupError(.file, "\(doing) \(path): \(String(cString: strerror(code)))")
    }
}
