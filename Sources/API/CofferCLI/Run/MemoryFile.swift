import CCofferSystem
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file that lives only in memory (`memfd_create`): no name in any folder, never written to a disk, gone when the
/// last process holding it closes it. Sealed once filled, so the program it is handed to reads what the keychain gave.
enum MemoryFile {
    /// A descriptor of a new memory file holding `bytes`, open across `exec` so the command inherits it; its path for
    /// the command is `/dev/fd/N`.
    static func holding(_ bytes: Data, name: String) throws(CLIFailure) -> Int32 {
        let descriptor = coffer_memory_file(name)
        guard descriptor >= 0 else { throw CLIFailure("run: cannot make a file in memory for \(name): \(String(cString: strerror(errno)))") }
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += result
            }
            return true
        }
        guard written, lseek(descriptor, 0, SEEK_SET) == 0, coffer_seal_memory_file(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw CLIFailure("run: cannot fill the file in memory for \(name): \(reason)")
        }
        return descriptor
    }
}
