import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Whether the process serving a socket is one a keychain may trust with what it seals: root, or the user who owns
/// the socket file, in a folder that only that user or root may change (so no one else put the socket there).
enum ServiceSocketCheck {
    /// Layout-compatible with `struct ucred`.
    private struct UCred {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
    }

    /// Why the server behind `descriptor`, connected to `path`, is refused; nil when it is trusted.
    static func refusal(path: String, descriptor: Int32) -> String? {
        var credentials = UCred()
        var length = socklen_t(MemoryLayout<UCred>.size)
        guard getsockopt(descriptor, SOL_SOCKET, 17 /* SO_PEERCRED */, &credentials, &length) == 0 else {
            return "its credentials cannot be read (errno \(errno))"
        }
        var socketStatus = stat()
        var folderStatus = stat()
        let folder = (path as NSString).deletingLastPathComponent
        guard lstat(path, &socketStatus) == 0, stat(folder.isEmpty ? "." : folder, &folderStatus) == 0 else {
            return "the socket or its folder cannot be examined"
        }
        let server = credentials.uid
        guard server == 0 || server == socketStatus.st_uid else {
            return "it is served by uid \(server), who owns neither the socket nor is root"
        }
        guard folderStatus.st_uid == 0 || folderStatus.st_uid == server, folderStatus.st_mode & 0o022 == 0 else {
            return "its folder \(folder) may be changed by users other than the server's"
        }
        return nil
    }
}
