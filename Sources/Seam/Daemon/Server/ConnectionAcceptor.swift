import CCofferSystem
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Accepts connections on the listening socket on a thread of its own, which sleeps in `poll` between
/// them, and hands each accepted socket to `accepted`.
///
/// The server accepts here rather than through SwiftNIO's server channel because it needs each socket's
/// descriptor (to keep a duplicate that worker threads write answers to, ``WorkerSocket``), which a
/// channel SwiftNIO accepted does not reveal. ``stop()`` wakes the thread through an `eventfd`; the
/// listening socket itself is never shut down, since under socket activation systemd shares it.
final class ConnectionAcceptor: Sendable {
    private let listening: Int32
    private let wake: Int32
    private let logger: Logger
    private let finished = Mutex(false)
    private let finishedSignal = DispatchSemaphore(value: 0)

    /// An acceptor for the listening socket `listening` (made non-blocking here; not closed here).
    init(listening: Int32, logger: Logger) throws(DaemonError) {
        let flags = fcntl(listening, F_GETFL)
        guard flags >= 0, fcntl(listening, F_SETFL, flags | O_NONBLOCK) == 0 else { throw .system("fcntl", errno) }
        let wake = coffer_wake_descriptor()
        guard wake >= 0 else { throw .system("eventfd", errno) }
        self.listening = listening
        self.wake = wake
        self.logger = logger
    }

    deinit { close(wake) }

    /// Starts the thread; `accepted` is called on it with each new connection's socket (non-blocking,
    /// close-on-exec), which it then owns.
    func start(_ accepted: @escaping @Sendable (Int32) -> Void) {
        Thread { [self] in
            coffer_name_thread("coffer-accept")
            run(accepted)
            finished.withLock { $0 = true }
            finishedSignal.signal()
        }.start()
    }

    /// Makes the thread stop accepting and end; returns at once. Connections still in the backlog are
    /// not accepted.
    func stop() {
        var one: UInt64 = 1
        _ = Glibc.write(wake, &one, MemoryLayout<UInt64>.size)
    }

    /// Waits until the thread has ended (after ``stop()``).
    func waitUntilFinished() {
        if finished.withLock({ $0 }) { return }
        finishedSignal.wait()
        finishedSignal.signal()
    }

    private func run(_ accepted: @Sendable (Int32) -> Void) {
        var descriptors = [
            pollfd(fd: listening, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                logger.error("cofferd stopped accepting connections: poll failed (errno \(errno))")
                return
            }
            if descriptors[1].revents != 0 { return }
            // Accepts what the backlog holds, then sleeps again.
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
                    // Out of descriptors or memory: the connection stays in the backlog; try again shortly
                    // rather than spinning on a socket that stays readable.
                    logger.warning("cannot accept a connection now (errno \(errno)); trying again in 50 ms")
                    usleep(50_000)
                default:
                    logger.error("cofferd stopped accepting connections: accept failed (errno \(errno))")
                    return
                }
                break
            }
        }
    }
}
