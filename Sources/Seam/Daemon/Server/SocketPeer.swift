import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Who is at the other end of an accepted connection, as the kernel fixed it at connect: `SO_PEERCRED`
/// and a pidfd (`SO_PEERPIDFD`), read on the event loop through SwiftNIO's socket options (two
/// non-blocking `getsockopt` calls). Reading `/proc` and identifying the program happen later, off the loop.
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

    /// Reads the credentials of `channel`'s peer; call on the channel's event loop (the options are then
    /// read at once). Calls `completion` with the peer, or with the error that made it unreadable.
    static func read(from channel: any Channel, _ completion: @escaping (Result<SocketPeer, any Error>) -> Void) {
        guard let provider = channel as? SocketOptionProvider else {
            completion(.failure(ChannelError.operationUnsupported))
            return
        }
        let level = SocketOptionLevel(SOL_SOCKET)
        let credentials: EventLoopFuture<UCred> = provider.unsafeGetSocketOption(level: level, name: SocketOptionName(peerCredentialsOption))
        let pidfd: EventLoopFuture<Int32> = provider.unsafeGetSocketOption(level: level, name: SocketOptionName(peerPidfdOption))
        pidfd.recover { _ in -1 }.assumeIsolated().whenSuccess { pidfd in
            credentials.assumeIsolated().whenComplete { result in
                switch result {
                case .success(let credentials):
                    completion(.success(SocketPeer(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid, pidfd: pidfd)))
                case .failure(let error):
                    if pidfd >= 0 { _ = Glibc.close(pidfd) }
                    completion(.failure(error))
                }
            }
        }
    }

    /// Closes the pidfd (for a connection refused before its caller is identified).
    func closePidfd() {
        if pidfd >= 0 { _ = Glibc.close(pidfd) }
    }
}
