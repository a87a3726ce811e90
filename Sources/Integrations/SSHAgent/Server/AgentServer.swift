import CofferRuntime
import Foundation
import KeychainModel
import Logging
import ProgramIdentity
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The agent's socket: a thread that accepts connections and a thread of its own for each, so a request that
/// waits on the keychain (or on a person, for a key that asks) never holds Swift's cooperative pool or another
/// connection.
///
/// Only processes of the agent's own user (or root) are served, as OpenSSH's agent checks with `SO_PEERCRED`. Each
/// connection's caller is identified as cofferd identifies its callers (the credentials and a pidfd read right after
/// `accept`, the program identified on the connection's thread), and is served the keys its program may use. At
/// most ``maximumConnections`` are open at once; more are closed at once.
public final class AgentServer: Sendable {
    /// The most connections served at once.
    public static let maximumConnections = 64

    private let service: SSHAgentService
    private let listener: Int32
    private let logger: Logger
    private let openConnections = Atomic<Int>(0)

    /// Listens at `path` (a Unix socket, mode 0600) for `service`.
    public init(
        path: String, service: SSHAgentService, logger: Logger = Logger(label: "coffer.ssh-agent")
    ) throws(AgentSocketError) {
        self.service = service
        self.logger = logger
        do {
            listener = try UnixSocket.listen(at: path, mode: 0o600)
        } catch {
            throw AgentSocketError("cannot listen on \(path): \(error)")
        }
    }

    /// Serves `service` on `listener`, a listening socket systemd passed (socket activation, `LISTEN_FDS`); its
    /// place and mode are the socket unit's.
    public init(inheritedListener listener: Int32, service: SSHAgentService, logger: Logger = Logger(label: "coffer.ssh-agent")) {
        self.service = service
        self.logger = logger
        self.listener = listener
        _ = fcntl(listener, F_SETFD, FD_CLOEXEC)
    }

    /// Starts the accepting thread; it runs for the life of the process.
    public func start() {
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "coffer-ssh-agent-accept"
        thread.start()
    }

    private func acceptLoop() {
        // The agent starts no programs, so setting close-on-exec just after `accept` leaves no window that matters.
        let failure = UnixSocket.acceptConnections(on: listener, stopped: { false }) { connection in
            guard let peer = try? PeerCredentials.of(socket: connection) else {
                logger.notice("a connection whose credentials could not be read was refused")
                close(connection)
                return
            }
            guard peer.uid == getuid() || peer.uid == 0 else {
                logger.notice("a connection from another user was refused")
                peer.close()
                close(connection)
                return
            }
            guard openConnections.add(1, ordering: .relaxed).newValue <= Self.maximumConnections else {
                openConnections.subtract(1, ordering: .relaxed)
                logger.notice("too many connections; one was closed")
                peer.close()
                close(connection)
                return
            }
            let thread = Thread { [self] in
                let caller = service.caller(of: peer, connection: connection)
                peer.close()
                serve(connection, caller: caller)
                close(connection)
                openConnections.subtract(1, ordering: .relaxed)
            }
            thread.name = "coffer-ssh-agent-connection"
            thread.start()
        }
        if let failure { logger.error("accept failed (errno \(failure)); the agent stops accepting") }
    }

    /// Answers `connection`'s messages in order until it closes, sends a frame too long, or sends a malformed one.
    private func serve(_ connection: Int32, caller: AgentCaller) {
        // The sessions this connection binds (session-bind@openssh.com), for keys with destination constraints.
        let bindings = AgentConnection()
        while let header = UnixSocket.readExactly(connection, count: 4) {
            let length = header.reduce(0) { $0 << 8 | Int($1) }
            guard length > 0, length <= AgentMessageNumber.maximumMessageLength else {
                logger.notice("a message of \(length) bytes was refused; closing the connection")
                _ = UnixSocket.writeAll(connection, AgentResponse.failure.frame)
                return
            }
            guard var payload = UnixSocket.readExactly(connection, count: length) else { return }
            let (response, shouldClose) = service.respond(to: payload, from: caller, on: bindings)
            payload.zeroize()
            guard UnixSocket.writeAll(connection, response.frame), !shouldClose else { return }
        }
    }
}
