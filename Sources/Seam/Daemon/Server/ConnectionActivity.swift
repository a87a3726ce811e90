import Dispatch
import Synchronization

/// What the worker threads tell a connection's time-out check about its requests: how many are being
/// answered, and when the last answer was written. The watcher reads them when it looks at the time-outs.
final class ConnectionActivity: Sendable {
    private let running = Atomic<Int>(0)
    private let lastAnswer = Atomic<UInt64>(0)

    /// Requests handed to the workers and not yet answered (a request waiting on a person included).
    var requestsRunning: Int { running.load(ordering: .acquiring) }

    /// When the last answer was written or dropped (``MonotonicClock``); nil before the first.
    var lastAnswered: UInt64? {
        let nanoseconds = lastAnswer.load(ordering: .acquiring)
        return nanoseconds == 0 ? nil : nanoseconds
    }

    /// `count` requests were handed to the workers.
    func started(_ count: Int) { running.add(count, ordering: .relaxed) }

    /// A request's answer was written, left waiting for room in the socket, or dropped.
    func answered() {
        lastAnswer.store(MonotonicClock.now, ordering: .releasing)
        running.subtract(1, ordering: .releasing)
    }
}
