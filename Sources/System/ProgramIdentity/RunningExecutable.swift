#if canImport(Glibc)
import Glibc
#endif

/// The executable a process is running, opened through `/proc/PID/exe`: the file itself, not whatever is
/// at its path now, so replacing or bind-mounting the path afterwards changes nothing of what is read here.
struct RunningExecutable: ~Copyable {
    /// The path the kernel reports, " (deleted)" removed when the file has no links left.
    let path: String
    /// The running file's `fstat`.
    let file: FileIdentity
    /// The open file (closed with this value): readable, or only a path descriptor (`O_PATH`, enough for
    /// `fstat`) when the daemon may not read it, as after dpkg made a replaced setgid file 0600.
    let descriptor: Int32

    /// Opens the executable of process `pid`.
    init(pid: Int32, procRoot: String) throws(IdentificationError) {
        let link = "\(procRoot)/\(pid)/exe"
        guard let reported = ProcessNamespaces.readLink(link) else { throw .unidentifiablePeer("cannot read \(link)") }
        var descriptor = open(link, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if descriptor < 0 && errno == EACCES { descriptor = open(link, Self.pathOnly | O_CLOEXEC) }
        guard descriptor >= 0 else {
            throw .unidentifiablePeer("cannot open \(link): \(String(cString: strerror(errno)))")
        }
        do {
            file = try FileIdentity.of(descriptor: descriptor)
        } catch {
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        path = file.links == 0 ? Self.withoutDeletedSuffix(reported) : reported
    }

    deinit { close(descriptor) }

    /// `O_PATH` (Linux), which Glibc's Swift module does not export.
    static let pathOnly: Int32 = 0o10000000

    /// `path` without the " (deleted)" the kernel appends to a file that was removed or replaced while it
    /// ran (a package upgrade), so the program keeps the identity of its path.
    static func withoutDeletedSuffix(_ path: String) -> String {
        let suffix = " (deleted)"
        return path.hasSuffix(suffix) ? String(path.dropLast(suffix.count)) : path
    }
}
