import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where `export` writes: standard output, or a new file (`-o FILE`) that only its owner can read.
///
/// A file is created with `O_CREAT | O_EXCL | O_NOFOLLOW` and mode 0600, so an existing file, or a symbolic link
/// planted at the path, is never written through; `--force` removes what is at the path first (a link itself, never
/// its target) and then creates the file the same way. Bytes are written with `write(2)` straight from the caller's
/// buffer, so a private key is never copied into a growing buffer; a failed write removes the file it created. Each
/// descriptor opened here is closed exactly once.
struct ExportDestination {
    /// The file to create; nil for standard output.
    let path: String?
    /// Whether an existing file at ``path`` is replaced.
    let force: Bool

    /// Writes `bytes` whole; a failure names the file and the reason.
    func write(_ bytes: UnsafeRawBufferPointer, command: String) throws {
        guard let path else {
            if let reason = Self.writeAll(bytes, to: STDOUT_FILENO) { throw CLIFailure("\(command): cannot write to standard output: \(reason)") }
            return
        }
        let descriptor = try create(path, command: command)
        var failure = Self.writeAll(bytes, to: descriptor)
        if failure == nil, fsync(descriptor) != 0 { failure = Self.reason() }
        if close(descriptor) != 0, failure == nil { failure = Self.reason() }
        if let failure {
            unlink(path)
            throw CLIFailure("\(command): cannot write \(path): \(failure); the file was removed")
        }
    }

    /// The descriptor of a new file at `path`, mode 0600.
    private func create(_ path: String, command: String) throws -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        var descriptor = open(path, flags, 0o600)
        if descriptor < 0, errno == EEXIST {
            guard force else {
                throw CLIFailure("\(command): \(path) already exists; nothing was written (use --force to replace it)")
            }
            var status = stat()
            if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                throw CLIFailure("\(command): \(path) is a directory; nothing was written")
            }
            guard unlink(path) == 0 else { throw CLIFailure("\(command): cannot replace \(path): \(Self.reason())") }
            descriptor = open(path, flags, 0o600)
        }
        guard descriptor >= 0 else { throw CLIFailure("\(command): cannot create \(path): \(Self.reason())") }
        // The umask may only have removed bits; set the mode exactly.
        guard fchmod(descriptor, 0o600) == 0 else {
            let reason = Self.reason()
            close(descriptor)
            unlink(path)
            throw CLIFailure("\(command): cannot set the mode of \(path): \(reason)")
        }
        return descriptor
    }

    /// Writes every byte to `descriptor`, retrying after interruptions and short writes; the reason of a failure.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> String? {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return reason()
            }
            offset += written
        }
        return nil
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
