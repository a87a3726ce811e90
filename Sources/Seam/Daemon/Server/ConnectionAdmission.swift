import ProgramIdentity
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What happens to each accepted socket, on the watcher's thread: who connected is read from the kernel,
/// the connection is admitted under the per-uid and global caps (or closed, the refusal logged), watched,
/// and its caller identified on a worker (at most ``ResourceLimits/concurrentIdentificationsPerUser`` per
/// uid at once). Until then nothing is read from it; a connection that hangs up meanwhile is closed and
/// its identification abandoned.
struct ConnectionAdmission: Sendable {
    /// The server's shared state.
    let server: ServerContext

    /// Takes an accepted socket (non-blocking, close-on-exec), which it owns from now on.
    func accepted(_ descriptor: Int32) {
        let peer: SocketPeer
        do {
            peer = try SocketPeer.read(from: descriptor)
        } catch {
            server.logger.warning("refused a connection whose credentials cannot be read: \(error)")
            close(descriptor)
            return
        }
        if let refusal = server.connections.admit(peer.uid) {
            let reason =
                switch refusal {
                case .userCap(let cap): "this user already holds \(cap) connections, the most one user may"
                case .globalCap(let cap): "the daemon already holds \(cap) connections, the most it serves at once"
                }
            server.refusals.refused("connections", uid: peer.uid, pid: peer.pid, reason: reason)
            peer.closePidfd()
            close(descriptor)
            return
        }
        let number = server.connectionNumbers.add(1, ordering: .relaxed).newValue
        let connection = Connection(number: number, descriptor: descriptor, peer: peer, server: server)
        guard server.watcher.watch(connection), !server.isStopping else {
            peer.closePidfd()
            connection.close()
            return
        }
        identify(connection)
    }

    /// Identifies the caller on a worker thread; requests are read once it is known.
    private func identify(_ connection: Connection) {
        let server = server
        let peer = connection.peer
        server.identifications.submit(for: peer.uid) {
            let closed = connection.closedFlag
            guard !closed.isSet, !server.isStopping else {
                peer.closePidfd()
                connection.close()
                return
            }
            let credentials = PeerCredentials(pid: peer.pid, uid: peer.uid, gid: peer.gid, pidfd: peer.pidfd)
            // The identity is fixed at connect: the pidfd is not needed once it is known.
            defer { credentials.close() }
            do {
                let keychain = try server.keychains.keychain(for: peer.uid)
                let program = try identifyCaller(
                    credentials, of: keychain, with: server.identifier, mode: server.mode, isAbandoned: { closed.isSet })
                let caller = ConnectionCaller(keychain: keychain, program: program, pid: peer.pid, connection: connection.number, mode: server.mode)
                _ = connection.identified(as: caller)
            } catch DaemonError.keychainAwaitsRecovery(let reason) {
                // Answered with why, and open to `coffer keystore recover`, rather than closed.
                guard let desk = try? server.keychains.recoveryDesk(for: peer.uid, reason: reason) else { return connection.close() }
                server.logger.notice("a keychain awaits its recovery key", metadata: ["uid": "\(peer.uid)", "reason": "\(reason)"])
                _ = connection.identified(as: ConnectionCaller(recovery: desk, pid: peer.pid))
            } catch {
                if !closed.isSet {
                    server.logger.warning("refused a connection: \(error)", metadata: ["uid": "\(peer.uid)", "pid": "\(peer.pid)"])
                }
                connection.close()
            }
        }
    }
}
