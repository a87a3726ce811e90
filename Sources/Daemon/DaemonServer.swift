import CofferDiagnostics
import Foundation
import KeychainClient
import KeychainService
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The socket server: accepts connections, identifies each caller once at connect, and serves its
/// requests on a thread of its own. A malformed frame closes that connection only.
///
/// Shutdown (``shutdown()``, on SIGTERM) stops accepting, lets in-flight requests finish, then drops
/// every keychain so that their keys are zeroized.
public final class DaemonServer: Sendable {
    /// The configuration.
    public let configuration: DaemonConfiguration
    /// The keychains, by uid.
    public let keychains: UserKeychains
    private let identifier: PeerIdentifier
    private let workers = WorkerThreads()
    private let logger = DiagnosticsLevel.logger(label: "coffer.daemon")
    private let state = Mutex(State())
    /// Requests being answered now (``State/inFlight`` without the lock, for the polling check).
    private let busy = Atomic<Int>(0)
    private let idle = Condition()
    /// Connections accepted so far: each gets the next number, for prompts tied to a connection.
    private let connectionCount = Atomic<UInt64>(0)

    private struct State {
        var listening: Int32 = -1
        var stopping = false
        var connections = 0
        var inFlight = 0
        var openDescriptors: Set<Int32> = []
    }

    /// A server for `configuration`.
    public init(configuration: DaemonConfiguration) {
        self.configuration = configuration
        keychains = UserKeychains(mode: configuration.mode)
        identifier = PeerIdentifier(trustedFrontEndGroup: configuration.trustedFrontEndGroup)
    }

    /// Listens (or adopts the socket systemd passed, `LISTEN_FDS`) and serves until ``shutdown()``.
    public func run(inheritedSocket: Int32? = nil) throws {
        let listening = try inheritedSocket ?? UnixSocket.listen(at: configuration.socketPath, mode: socketMode)
        state.withLock { $0.listening = listening }
        logger.notice("cofferd listening", metadata: ["socket": "\(configuration.socketPath)"])
        if let interval = configuration.autoLockAfter { startAutoLock(every: interval) }
        while true {
            let connection = accept(listening, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                if state.withLock({ $0.stopping }) { break }
                if errno == EMFILE || errno == ENFILE { usleep(100_000); continue }
                throw DaemonError.system("accept", errno)
            }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            let admitted = state.withLock { state -> Bool in
                guard !state.stopping, state.connections < configuration.maximumConnections else { return false }
                state.connections += 1
                state.openDescriptors.insert(connection)
                return true
            }
            guard admitted else {
                close(connection)
                continue
            }
            let thread = Thread { [self] in
                serve(connection)
                state.withLock { state in
                    state.connections -= 1
                    state.openDescriptors.remove(connection)
                }
                close(connection)
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        waitForInFlightRequests()
        keychains.closeAll()
        if inheritedSocket == nil { unlink(configuration.socketPath) }
        logger.notice("cofferd stopped")
    }

    /// Stops accepting; requests already running finish, idle connections are closed.
    public func shutdown() {
        let (listening, descriptors) = state.withLock { state in
            state.stopping = true
            return (state.listening, state.openDescriptors)
        }
        if listening >= 0 { Glibc.shutdown(listening, Int32(SHUT_RDWR)); close(listening) }
        // Wake connection threads blocked in recv; a request being processed still completes and answers.
        for descriptor in descriptors { Glibc.shutdown(descriptor, Int32(SHUT_RD)) }
    }

    private var socketMode: mode_t {
        switch configuration.mode {
        case .system: 0o666
        case .user: 0o600
        }
    }

    /// Serves one connection until the peer closes it, a frame is malformed, or the server stops.
    private func serve(_ connection: Int32) {
        UnixSocket.setTimeouts(connection, seconds: configuration.connectionTimeoutSeconds)
        let session: ConnectionSession
        do {
            session = try ConnectionSession(
                connection: connection, id: connectionCount.add(1, ordering: .relaxed).newValue, keychains: keychains,
                identifier: identifier, workers: workers, mode: configuration.mode)
        } catch {
            logger.warning("refused a connection: \(error)")
            return
        }
        defer { session.close() }
        session.run(ConnectionSession.Admission(
            begin: { [self] in
                let admitted = state.withLock { state in
                    guard !state.stopping else { return false }
                    state.inFlight += 1
                    return true
                }
                if admitted { busy.add(1, ordering: .relaxed) }
                return admitted
            },
            end: { [self] in
                busy.subtract(1, ordering: .relaxed)
                state.withLock { $0.inFlight -= 1 }
                idle.signal()
            },
            mayPoll: { [self] in busy.load(ordering: .relaxed) == 0 }))
    }

    private func waitForInFlightRequests() {
        let deadline = ContinuousClock.now + .seconds(10)
        while state.withLock({ $0.inFlight > 0 }), ContinuousClock.now < deadline {
            idle.wait(timeout: .milliseconds(50))
        }
    }

    private func startAutoLock(every interval: Duration) {
        let thread = Thread { [self] in
            while !state.withLock({ $0.stopping }) {
                Thread.sleep(forTimeInterval: min(1, Double(interval.components.seconds) / 4 + 0.05))
                keychains.lockIdle(after: interval)
            }
        }
        thread.start()
    }
}

/// A tiny wait/signal primitive for the shutdown path.
final class Condition: Sendable {
    private let condition = NSCondition()  // NSCondition is thread-safe; Sendable is declared by its use only here.

    func signal() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    func wait(timeout: Duration) {
        condition.lock()
        _ = condition.wait(until: Date().addingTimeInterval(Double(timeout.components.attoseconds) / 1e18 + Double(timeout.components.seconds)))
        condition.unlock()
    }
}
