#if canImport(Glibc)
import Glibc
#endif

/// Who is at the other end of an accepted connection, as the kernel fixed it at connect: `SO_PEERCRED`
/// and a pidfd (`SO_PEERPIDFD`), read on the watcher's thread as it accepts (two non-blocking `getsockopt`
/// calls). Reading `/proc` and identifying the program happen later, on a worker.
struct SocketPeer: Sendable {
    /// The peer's process ID at connect.
    let pid: Int32
    /// The peer's user ID, which selects the keychain and the limits that apply.
    let uid: UInt32
    /// The peer's group ID.
    let gid: UInt32
    /// A pidfd pinning the peer process, or -1; owned by whoever identifies the caller.
    let pidfd: Int32

    /// Layout-compatible with `struct ucred`, which Swift's Glibc module does not expose.
    private struct UCred: Sendable {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
    }

    private static let peerCredentialsOption: Int32 = 17  // SO_PEERCRED
    private static let peerPidfdOption: Int32 = 77  // SO_PEERPIDFD (Linux 6.5+); not in glibc 2.36's headers

    /// Reads the credentials of the peer of the connected socket `descriptor`.
    static func read(from descriptor: Int32) throws(DaemonError) -> SocketPeer {
        var credentials = UCred()
        var length = socklen_t(MemoryLayout<UCred>.size)
        guard getsockopt(descriptor, SOL_SOCKET, peerCredentialsOption, &credentials, &length) == 0 else {
            throw .system("getsockopt(SO_PEERCRED)", errno)
        }
        var pidfd: Int32 = -1
        var pidfdLength = socklen_t(MemoryLayout<Int32>.size)
        // Kernels before 6.5 have no SO_PEERPIDFD: the caller is then identified by its pid alone.
        if getsockopt(descriptor, SOL_SOCKET, peerPidfdOption, &pidfd, &pidfdLength) != 0 { pidfd = -1 }
        return SocketPeer(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid, pidfd: pidfd)
    }

    /// Closes the pidfd (for a connection refused before its caller is identified).
    func closePidfd() {
        if pidfd >= 0 { _ = Glibc.close(pidfd) }
    }
}
