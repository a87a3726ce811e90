import Dispatch
import KeychainOperations
import Synchronization

/// Where a callback delivers the answer a blocked thread waits for.
final class ReplySlot: Sendable {
    private let answer = Mutex<Response?>(nil)
    private let delivered = DispatchSemaphore(value: 0)

    /// Stores the answer and wakes the waiting thread.
    func deliver(_ response: Response) {
        answer.withLock { $0 = response }
        delivered.signal()
    }

    /// The answer, once delivered (at once when it already was).
    func wait() -> Response {
        delivered.wait()
        return answer.withLock { $0! }
    }
}
