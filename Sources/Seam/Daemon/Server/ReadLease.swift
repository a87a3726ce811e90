import Synchronization

/// Who reads a connection's socket: the event loop, or, for a short while after answering, the worker
/// that answered (so that a client sending its next request at once is answered without waking the
/// loop, as the thread-per-connection server polled for it).
///
/// The loop offers the socket when a read ends on a frame boundary while a job of the connection runs
/// (``offer()``, the loop then stops reading); the last such job to finish takes it (``jobFinished()``)
/// and gives it back (``giveBack()``) when it stops polling. Until then only that worker reads.
final class ReadLease: Sendable {
    private enum Holder { case loop, offered, worker }
    private struct State {
        var holder = Holder.loop
        var jobsRunning = 0
    }

    private let state = Mutex(State())

    /// A job of the connection was handed to the workers (on the loop).
    func jobStarted() { state.withLock { $0.jobsRunning += 1 } }

    /// Whether an offer may succeed now (the loop holds the socket and jobs run); ``offer()`` decides.
    var mayOffer: Bool { state.withLock { $0.holder == .loop && $0.jobsRunning > 0 } }

    /// Offers the socket to the running jobs (on the loop, at the end of a read that left no partial
    /// frame); true when offered: the loop must stop reading until it is given back.
    func offer() -> Bool {
        state.withLock { state in
            guard state.holder == .loop, state.jobsRunning > 0 else { return false }
            state.holder = .offered
            return true
        }
    }

    /// A job ended (on its worker); true when this worker now holds the socket and must give it back.
    func jobFinished() -> Bool {
        state.withLock { state in
            state.jobsRunning -= 1
            guard state.holder == .offered, state.jobsRunning == 0 else { return false }
            state.holder = .worker
            return true
        }
    }

    /// The worker stops reading; the loop reads again once it has taken the socket back.
    func giveBack() { state.withLock { $0.holder = .loop } }
}
