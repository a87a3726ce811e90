import CofferDiagnostics
import CofferRuntime
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// cofferd's credentials socket, for systemd's `LoadCredential=ID:/run/coffer/credentials.sock` (per-user:
/// `LoadCredential=ID:%t/coffer/credentials.sock` in a user unit).
///
/// systemd connects once per credential as it starts a unit, from an abstract address naming the unit and the
/// credential (``CredentialRequest``), and reads until the connection closes. The answer is the credential's bytes,
/// or nothing (systemd then fails the unit's start): only for a connection from systemd's user (root for the system
/// manager, the daemon's user for a user manager), for a unit registered with `coffer apps add --unit`, and for an
/// item among that unit's access groups (``UnitCredentials``). One thread accepts and answers, one connection at a
/// time, each bounded by a send time-out.
public final class CredentialServer: Sendable {
    /// The socket's path.
    public let path: String
    private let listener: Int32
    private let credentials: UnitCredentials
    /// The uid systemd runs as for the units this daemon serves.
    private let managerUID: UInt32
    private let stopped = Atomic<Bool>(false)
    private let logger = DiagnosticsLevel.logger(label: "coffer.credentials")

    /// Listens at `path` (0600: only systemd's user and the daemon's connect) for the keychains `keychains` holds;
    /// `managerUID` is root's for the system daemon, the user's own for a per-user daemon.
    public init(path: String, keychains: UserKeychains, managerUID: UInt32) throws(DaemonError) {
        self.path = path
        self.managerUID = managerUID
        credentials = UnitCredentials(keychains: keychains)
        do {
            listener = try UnixSocket.listen(at: path, mode: 0o600)
        } catch {
            throw .system("listen \(path)", (error as? UnixSocket.Failure)?.code ?? EIO)
        }
    }

    /// Starts the accepting thread.
    public func start() {
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "coffer-credentials"
        thread.start()
    }

    /// Stops accepting and removes the socket.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        unlink(path)
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        defer { close(listener) }
        let failure = UnixSocket.acceptConnections(on: listener, stopped: { stopped.load(ordering: .acquiring) }) { connection in
            answer(connection)
            close(connection)
        }
        if let failure { logger.error("accept failed (errno \(failure)); the credentials socket stops accepting") }
    }

    /// Writes the credential `connection`'s peer asks for, or nothing; says in the log which and why not.
    private func answer(_ connection: Int32) {
        guard let peer = try? SocketPeer.read(from: connection) else { return }
        peer.closePidfd()
        guard peer.uid == managerUID else {
            logger.notice("refused a credential to a caller that is not systemd's user", metadata: ["uid": "\(peer.uid)", "pid": "\(peer.pid)"])
            return
        }
        guard let request = CredentialRequest.ofPeer(connection) else {
            logger.notice("refused a credential: the caller's address is not systemd's (…/unit/UNIT/CREDENTIAL)", metadata: ["pid": "\(peer.pid)"])
            return
        }
        var secret: Data
        do {
            secret = try credentials.secret(for: request, peerPID: peer.pid)
        } catch {
            logger.notice("refused credential \(request.credential) to \(request.unit): \(error)")
            return
        }
        defer { secret.resetBytes(in: 0..<secret.count) }
        UnixSocket.setSendTimeout(connection, .seconds(10))
        if UnixSocket.writeAll(connection, secret) {
            logger.info("gave credential \(request.credential) to \(request.unit)")
        } else {
            logger.notice("credential \(request.credential) could not be sent to \(request.unit) (errno \(errno))")
        }
    }
}
