import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One cofferd per socket: an exclusive `flock` on a file beside the socket (`cofferd.sock.lock`), held for the
/// daemon's life. A second cofferd for the same socket finds it held and refuses to start, leaving the first
/// serving: it neither replaces the live socket nor removes it when it exits. The kernel drops the lock when
/// its holder ends, however it ends, so a socket left by a daemon that was killed is still replaced.
final class ListenerLock {
    private var descriptor: Int32

    /// The lock file's path for the socket at `socketPath`.
    static func path(forSocket socketPath: String) -> String { socketPath + ".lock" }

    /// Takes the lock for `socketPath`, or throws ``DaemonError/socketInUse(_:)`` when another daemon holds it.
    /// The file is opened without following a symbolic link and must belong to this user.
    init(socketPath: String) throws(DaemonError) {
        let path = Self.path(forSocket: socketPath)
        let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard opened >= 0 else { throw .system("open \(path)", errno) }
        var status = stat()
        guard fstat(opened, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_uid == geteuid() else {
            close(opened)
            throw .system("open \(path): not a regular file of this user", EPERM)
        }
        while flock(opened, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(opened)
            if code == EWOULDBLOCK { throw .socketInUse(socketPath) }
            throw .system("flock \(path)", code)
        }
        descriptor = opened
    }

    /// Lets the lock go (the daemon has stopped and removed its socket).
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit {
        release()
    }
}
