import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The listening socket's file as the daemon made it: a daemon whose socket file is gone (logout removed
/// the runtime folder, or the user deleted it) can no longer be reached, so it stops rather than linger.
struct SocketPresence: Sendable {
    private let path: String
    private let device: UInt64
    private let inode: UInt64

    /// The socket file at `path` as it is now; nil when there is none.
    init?(path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        self.path = path
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// Whether the same file is still at the path.
    var isStillThere: Bool {
        var status = stat()
        return lstat(path, &status) == 0 && UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}
