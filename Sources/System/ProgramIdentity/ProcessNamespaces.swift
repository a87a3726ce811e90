import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A process's user and mount namespaces, as `/proc/PID/ns/user` and `/proc/PID/ns/mnt` name them
/// (`user:[4026531837]`). A program in another mount namespace can bind-mount any file over any path,
/// so what its `/proc/PID/exe` path says is not evidence there.
public struct ProcessNamespaces: Sendable, Hashable {
    /// The user namespace's link text.
    public let user: String
    /// The mount namespace's link text.
    public let mount: String

    /// The namespaces of process `pid` under `procRoot`; nil when they cannot be read.
    public static func of(pid: String, procRoot: String = "/proc") -> ProcessNamespaces? {
        guard let user = readLink("\(procRoot)/\(pid)/ns/user"), let mount = readLink("\(procRoot)/\(pid)/ns/mnt") else { return nil }
        return ProcessNamespaces(user: user, mount: mount)
    }

    /// The namespaces the daemon compares peers with: those of PID 1 (the host's, when the daemon runs as
    /// a systemd service, which gives it a mount namespace of its own), or the daemon's own when PID 1's
    /// cannot be read (no `CAP_SYS_PTRACE`).
    public static func reference(procRoot: String = "/proc") -> ProcessNamespaces? {
        of(pid: "1", procRoot: procRoot) ?? of(pid: "self", procRoot: procRoot)
    }

    /// The target of a symbolic link, or nil.
    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
