import NIOCore
import Synchronization

/// What the worker threads tell a connection's event loop about its requests without waking it: how
/// many are being answered, and when the last answer was written. The loop reads them when its idle
/// timer fires.
final class ConnectionActivity: Sendable {
    private let running = Atomic<Int>(0)
    private let lastAnswer = Atomic<UInt64>(0)

    /// Requests handed to the workers and not yet answered (a request waiting on a person included).
    var requestsRunning: Int { running.load(ordering: .acquiring) }

    /// When the last answer was written or dropped; nil before the first.
    var lastAnswered: NIODeadline? {
        let nanoseconds = lastAnswer.load(ordering: .acquiring)
        return nanoseconds == 0 ? nil : .uptimeNanoseconds(nanoseconds)
    }

    /// `count` requests were handed to the workers.
    func started(_ count: Int) { running.add(count, ordering: .relaxed) }

    /// A request's answer was written, handed to the loop, or dropped.
    func answered() {
        lastAnswer.store(NIODeadline.now().uptimeNanoseconds, ordering: .releasing)
        running.subtract(1, ordering: .releasing)
    }
}
