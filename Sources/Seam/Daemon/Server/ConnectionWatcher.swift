import CCofferSystem
import CofferRuntime
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The one thread that watches what no worker is busy with: the listening socket, connections waiting for
/// their next request or for room to send an answer, and the connections' time-outs. It sleeps in
/// `epoll_wait` (``EventPoll``) until one of them needs something, then hands it on: an accepted socket to
/// `accepted`, a connection with requests to `readable` (which gives it to a worker), waiting answers to
/// the socket; it closes connections that hung up before being identified, stayed silent inside a frame
/// for ``ResourceLimits/frameTimeout`` or idle for ``ResourceLimits/idleTimeout``. With no connection and no
/// time-out due, it sleeps without a time limit.
///
/// Connections are registered one-shot: once reported, a connection is not reported again until the
/// thread it was handed to asks (``Connection``), so a connection is read by one thread at a time.
final class ConnectionWatcher: Sendable {
    /// The `epoll` instance connections are registered with.
    let poll: EventPoll
    private let logger: Logger
    private let connections = Mutex<[UInt64: Connection]>([:])
    private let schedule = Mutex(Schedule())
    private let acceptance = Mutex(Acceptance())
    private let finished = DispatchSemaphore(value: 0)
    private let stoppedAccepting = DispatchSemaphore(value: 0)

    private static let listeningToken = UInt64.max - 1

    private struct Schedule {
        var checks = DeadlineQueue()
        /// When the watcher is due to wake if nothing else wakes it (`.max`: never); nil while it is awake.
        var sleepingUntil: UInt64?
    }

    private struct Acceptance {
        var listening: Int32 = -1
        /// Set by ``stopAccepting()``; the watcher stops watching the listening socket.
        var stopRequested = false
        /// Set by ``stop()``: the thread ends.
        var endRequested = false
        /// When to try `accept` again after the system ran out of descriptors or memory.
        var retryAt: UInt64?
    }

    /// A watcher with its own `epoll` instance; its thread starts with ``start(listening:accepted:readable:)``.
    init(logger: Logger) throws(UnixSocket.Failure) {
        poll = try EventPoll()
        self.logger = logger
    }

    // MARK: Connections

    /// The connections open now.
    var openConnections: [Connection] { connections.withLock { Array($0.values) } }

    /// Watches `connection` (registered one-shot, for hang-ups only until its caller is identified) and its
    /// time-outs; false, the connection untouched, when it cannot be registered.
    func watch(_ connection: Connection) -> Bool {
        connections.withLock { $0[connection.number] = connection }
        do {
            try connection.register()
        } catch {
            logger.warning("refused a connection that could not be watched: \(error)")
            connections.withLock { _ = $0.removeValue(forKey: connection.number) }
            return false
        }
        connection.scheduleFirstCheck()
        return true
    }

    /// Forgets a closed connection.
    func forget(_ number: UInt64) {
        let remaining = connections.withLock { connections in
            connections.removeValue(forKey: number)
            return connections.count
        }
        schedule.withLock { schedule in
            // Checks of closed connections come up and are ignored; a burst of short connections must not
            // leave hundreds of thousands of them waiting.
            if schedule.checks.count > 2 * remaining + 1_024 {
                let open = connections.withLock { Set($0.keys) }
                schedule.checks.removeAll { !open.contains($0.connection) }
            }
        }
    }

    /// Makes sure the watcher looks at `number`'s time-outs at `due` (``MonotonicClock``), waking it if it
    /// sleeps past then; from any thread.
    func lookAtTimeOuts(of number: UInt64, at due: UInt64) {
        let wake = schedule.withLock { schedule in
            schedule.checks.insert(DeadlineQueue.Entry(due: due, connection: number))
            guard let sleepingUntil = schedule.sleepingUntil, due < sleepingUntil else { return false }
            schedule.sleepingUntil = due
            return true
        }
        if wake { poll.wakeUp() }
    }

    // MARK: The thread

    /// Starts the thread: it watches `listening` (non-blocking; never closed here) and calls `accepted`
    /// with each new connection's socket (non-blocking, close-on-exec), which it then owns, and `readable`
    /// with each identified connection whose requests are waiting. Should the thread fail (`epoll_wait`
    /// refusing), it calls `failed` and ends.
    func start(
        listening: Int32, accepted: @escaping @Sendable (Int32) -> Void, readable: @escaping @Sendable (Connection) -> Void,
        failed: @escaping @Sendable () -> Void
    ) throws(UnixSocket.Failure) {
        try poll.add(listening, token: Self.listeningToken, interest: .read)
        acceptance.withLock { $0.listening = listening }
        Thread { [self] in
            coffer_name_thread("coffer-watch")
            if !run(accepted: accepted, readable: readable) {
                // Whoever waits for the listening socket to be let go must not wait for ever.
                acceptance.withLock { $0.listening = -1 }
                stoppedAccepting.signal()
                failed()
            }
            finished.signal()
        }.start()
    }

    /// Stops watching the listening socket and returns once the watcher will accept no more connections
    /// (connections still in the backlog are not accepted).
    func stopAccepting() {
        let wasListening = acceptance.withLock { acceptance in
            defer { acceptance.stopRequested = true }
            return acceptance.listening >= 0 && !acceptance.stopRequested
        }
        guard wasListening else { return }
        poll.wakeUp()
        stoppedAccepting.wait()
    }

    /// Ends the thread and waits for it (after ``stopAccepting()``).
    func stop() {
        acceptance.withLock { $0.endRequested = true }
        poll.wakeUp()
        finished.wait()
    }

    /// Watches until asked to end (true) or until `epoll_wait` fails (false).
    private func run(accepted: @Sendable (Int32) -> Void, readable: @Sendable (Connection) -> Void) -> Bool {
        var events: [EventPoll.Event] = []
        events.reserveCapacity(64)
        while true {
            let timeout = schedule.withLock { schedule -> Duration? in
                let retryAt = acceptance.withLock { $0.retryAt }
                let due = min(schedule.checks.earliest?.due ?? .max, retryAt ?? .max)
                schedule.sleepingUntil = due
                guard due != .max else { return nil }
                let now = MonotonicClock.now
                return due > now ? .nanoseconds(Int64(clamping: due - now)) : .zero
            }
            do {
                try poll.wait(timeout: timeout, into: &events)
            } catch {
                logger.critical("cofferd stopped watching its connections: \(error)")
                return false
            }
            schedule.withLock { $0.sleepingUntil = nil }
            for event in events {
                switch event.token {
                case EventPoll.wakeToken:
                    if acceptanceChanged() { return true }
                case Self.listeningToken:
                    acceptWaiting(accepted)
                default:
                    guard let connection = connections.withLock({ $0[event.token] }) else { continue }
                    switch connection.ready(event) {
                    case .nothing: break
                    case .read: readable(connection)
                    case .close: connection.close()
                    }
                }
            }
            retryAcceptingIfDue(accepted)
            lookAtDueTimeOuts()
        }
    }

    /// After a wake-up: stops watching the listening socket when asked; true when the thread is to end.
    private func acceptanceChanged() -> Bool {
        let (stopListening, end) = acceptance.withLock { acceptance -> (Bool, Bool) in
            let stop = acceptance.stopRequested && acceptance.listening >= 0
            if stop {
                poll.remove(acceptance.listening)
                acceptance.listening = -1
                acceptance.retryAt = nil
            }
            return (stop, acceptance.endRequested)
        }
        if stopListening { stoppedAccepting.signal() }
        return end
    }

    /// Accepts what the backlog holds, then watches the listening socket again.
    private func acceptWaiting(_ accepted: @Sendable (Int32) -> Void) {
        let listening = acceptance.withLock { $0.listening }
        guard listening >= 0 else { return }
        while true {
            let connection = coffer_accept_nonblocking(listening)
            if connection >= 0 {
                accepted(connection)
                continue
            }
            switch errno {
            case EAGAIN, EWOULDBLOCK: break
            case EINTR, ECONNABORTED, EPROTO: continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                // Out of descriptors or memory: the connection stays in the backlog. The listening socket
                // is left unwatched for 50 ms rather than reported readable again at once.
                logger.warning("cannot accept a connection now (errno \(errno)); trying again in 50 ms")
                acceptance.withLock { $0.retryAt = MonotonicClock.now + 50_000_000 }
                return
            default:
                logger.error("cofferd stopped accepting connections: accept failed (errno \(errno))")
                return
            }
            break
        }
        rewatchListening()
    }

    private func retryAcceptingIfDue(_ accepted: @Sendable (Int32) -> Void) {
        let due = acceptance.withLock { acceptance -> Bool in
            guard let retryAt = acceptance.retryAt, retryAt <= MonotonicClock.now else { return false }
            acceptance.retryAt = nil
            return true
        }
        if due { acceptWaiting(accepted) }
    }

    private func rewatchListening() {
        acceptance.withLock { acceptance in
            guard acceptance.listening >= 0 else { return }
            do {
                try poll.change(acceptance.listening, token: Self.listeningToken, interest: .read)
            } catch {
                logger.error("cofferd stopped accepting connections: \(error)")
            }
        }
    }

    /// Closes the connections whose time-outs are due, and schedules the next look at the others.
    private func lookAtDueTimeOuts() {
        let now = MonotonicClock.now
        while let entry = schedule.withLock({ $0.checks.popDue(at: now) }) {
            guard let connection = connections.withLock({ $0[entry.connection] }) else { continue }
            let metadata: Logger.Metadata = ["uid": "\(connection.peer.uid)", "pid": "\(connection.peer.pid)"]
            switch connection.checkTimeOuts(scheduled: entry.due, now: now) {
            case .nothing:
                break
            case .lookAgain(let due):
                schedule.withLock { $0.checks.insert(DeadlineQueue.Entry(due: due, connection: entry.connection)) }
            case .silentInsideFrame:
                logger.notice("closing a connection silent in the middle of a frame", metadata: metadata)
                connection.close()
            case .idle:
                logger.debug("closing an idle connection", metadata: metadata)
                connection.close()
            }
        }
    }
}
