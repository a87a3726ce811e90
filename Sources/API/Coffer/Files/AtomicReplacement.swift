import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A new file written beside its destination and renamed over it once complete and durable, so that a crash
/// leaves the old file or the new one, never a mix.
struct AtomicReplacement {
    let destination: String
    let temporary: String

    /// A temporary name in `destination`'s folder.
    init(destination: String) {
        self.destination = destination
        let url = URL(fileURLWithPath: destination)
        temporary =
            url.deletingLastPathComponent().appendingPathComponent(
                ".\(url.lastPathComponent).coffer-\(UInt32.random(in: .min ... .max))"
            ).path
    }

    /// Creates the temporary file (mode 0600, exclusively).
    func create() throws(ProtectedFileError) -> FileDescriptor {
        try FileDescriptor.open(temporary, flags: O_RDWR | O_CREAT | O_EXCL, writing: true)
    }

    /// Makes the temporary file durable and renames it over the destination, then makes the rename durable.
    func commit(_ descriptor: FileDescriptor) throws(ProtectedFileError) {
        do throws(ProtectedFileError) {
            try descriptor.synchronize()
            descriptor.close()
            guard rename(temporary, destination) == 0 else {
                throw FileDescriptor.error(errno, path: destination, writing: true, doing: "replace")
            }
        } catch {
            abandon(descriptor)
            throw error
        }
        let folder = Glibc.open(URL(fileURLWithPath: destination).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            Glibc.close(folder)
        }
    }

    /// Closes and removes the temporary file.
    func abandon(_ descriptor: FileDescriptor) {
        descriptor.close()
        unlink(temporary)
    }
}
