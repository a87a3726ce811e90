import CofferRuntime
import Foundation
import KeychainModel
import Logging
import Synchronization
import TrustedPlatformModule

#if canImport(Glibc)
import Glibc
#endif

/// The system cofferd's TPM service: the TPM it owns (`/dev/tpmrm0`, as a member of group `tss`), offered on a
/// socket every user may connect to (`/run/coffer/tpm.socket`, 0666) to the keychains of users who may not open it.
///
/// Each request is one TPM operation (seal, unseal, make the passcode's HMAC key, HMAC, make a P-256 key, sign,
/// agree) on an object made with the caller's authorisation value (``TPMServiceSecret``; the uid is the kernel's
/// `SO_PEERCRED`), so a user's objects are of no use to anyone else, whatever files they copy. Objects are noDA:
/// one user's wrong attempts never lock the TPM for the others. A thread accepts; each connection has a thread of
/// its own, so a request never holds Swift's cooperative pool; the TPM runs one command at a time for everyone.
/// A user holds at most ``connectionsPerUser`` connections, and all together at most ``maximumConnections``.
public final class TPMServiceServer: Sendable {
    /// Connections one uid may hold at once.
    public static let connectionsPerUser = 8
    /// Connections held at once, all users together.
    public static let maximumConnections = 128

    /// The socket path.
    public let path: String
    /// The answers, or why there are none: a socket systemd passed while cofferd has no TPM is answered with that
    /// reason, so no keychain waits on it.
    private let answers: Result<TPMServiceAnswers, TPMError>
    private let listener: Int32
    /// Whether cofferd made the socket (and removes it when it stops), rather than systemd.
    private let ownsSocket: Bool
    private let logger = Logger(label: "coffer.tpm-service")
    /// Open connections and their uid.
    private let connections = Mutex<[Int32: UInt32]>([:])
    private let stopped = Atomic<Bool>(false)

    /// Listens at `path` for the TPM `tpm`, with the secret kept in `stateDirectory`.
    public init(path: String, tpm: PlatformTPM, stateDirectory: URL) throws(DaemonError) {
        answers = .success(try Self.answers(tpm: tpm, stateDirectory: stateDirectory))
        self.path = path
        ownsSocket = true
        do {
            listener = try UnixSocket.listen(at: path, mode: 0o666)
        } catch {
            throw .system("listen \(path)", (error as? UnixSocket.Failure)?.code ?? EIO)
        }
    }

    /// Serves on `listener`, a listening socket systemd passed (`cofferd-tpm.socket`): the TPM `tpm` opened, or why
    /// it could not be, which every request is then answered with.
    public init(inheritedListener listener: Int32, path: String, tpm: Result<PlatformTPM, TPMError>, stateDirectory: URL) throws(DaemonError) {
        switch tpm {
        case .success(let tpm): answers = .success(try Self.answers(tpm: tpm, stateDirectory: stateDirectory))
        case .failure(let error): answers = .failure(TPMError(code: error.code, reason: "cofferd has no TPM to serve: \(error.reason)"))
        }
        self.path = path
        self.listener = listener
        ownsSocket = false
        _ = fcntl(listener, F_SETFD, FD_CLOEXEC)
    }

    private static func answers(tpm: PlatformTPM, stateDirectory: URL) throws(DaemonError) -> TPMServiceAnswers {
        do {
            return TPMServiceAnswers(tpm: tpm, secret: try TPMServiceSecret(stateDirectory: stateDirectory))
        } catch {
            throw .keychainUnavailable("the TPM service's secret: \(error)")
        }
    }

    /// Starts the accepting thread.
    public func start() {
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "coffer-tpm-service-accept"
        thread.start()
    }

    /// Stops accepting, closes every connection and removes the socket.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if ownsSocket { unlink(path) }
        shutdown(listener, Int32(SHUT_RDWR))
        connections.withLock { open in
            for descriptor in open.keys { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// The connections open now, for tests.
    public var openConnections: Int { connections.withLock { $0.count } }

    private func acceptLoop() {
        defer { close(listener) }
        let failure = UnixSocket.acceptConnections(on: listener, stopped: { stopped.load(ordering: .acquiring) }) { connection in
            guard let peer = try? SocketPeer.read(from: connection) else {
                close(connection)
                return
            }
            peer.closePidfd()
            guard admit(connection, uid: peer.uid) else {
                logger.notice("uid \(peer.uid) holds too many TPM service connections; one was closed")
                close(connection)
                return
            }
            let thread = Thread { [self] in
                serve(connection, uid: peer.uid)
                connections.withLock { _ = $0.removeValue(forKey: connection) }
                close(connection)
            }
            thread.name = "coffer-tpm-service-connection"
            thread.start()
        }
        if let failure { logger.error("accept failed (errno \(failure)); the TPM service stops accepting") }
    }

    private func admit(_ connection: Int32, uid: UInt32) -> Bool {
        connections.withLock { open in
            guard open.count < Self.maximumConnections, open.values.count(where: { $0 == uid }) < Self.connectionsPerUser else { return false }
            open[connection] = uid
            return true
        }
    }

    /// Answers `connection`'s requests in order until it closes or sends a frame that does not parse. A connection
    /// may stay idle between requests (a keychain keeps one open); it is closed when cofferd stops.
    private func serve(_ connection: Int32, uid: UInt32) {
        // No receive time-out between requests: only within one.
        UnixSocket.setSendTimeout(connection, .seconds(30))
        var idle = timeval(tv_sec: 0, tv_usec: 0)
        _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &idle, socklen_t(MemoryLayout<timeval>.size))
        while !stopped.load(ordering: .acquiring), let header = UnixSocket.readExactly(connection, count: 4) {
            let length = header.reduce(0) { $0 << 8 | Int($1) }
            guard length > 0, length <= TPMServiceMessage.maximumLength, var body = UnixSocket.readExactly(connection, count: length)
            else { return }
            let decoded = TPMServiceMessage.decode(body)
            body.zeroize()
            guard var request = decoded else { return }
            var answer =
                switch answers {
                case .success(let answers): answers.answer(request, for: uid)
                case .failure(let error): TPMServiceMessage(failure: error)
                }
            request.zeroize()
            var frame = answer.framed()
            answer.zeroize()
            let sent = UnixSocket.writeAll(connection, frame)
            frame.zeroize()
            guard sent else { return }
        }
    }
}
