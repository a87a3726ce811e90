import Foundation

/// One value handed from the thread that computes it to a thread that blocks until it comes: how a synchronous
/// call waits for `async` work (``SerialTaskExecutor/wait(for:)``).
public final class BlockingResult<Value: Sendable>: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    // Written once before `semaphore` is signalled, read once after it was waited for.
    private var value: Value?

    /// An empty slot.
    public init() {}

    /// Hands `value` over; called once.
    public func deliver(_ value: Value) {
        self.value = value
        semaphore.signal()
    }

    /// Blocks the calling thread until the value is delivered, then returns it; called once.
    public func take() -> Value {
        semaphore.wait()
        return value!
    }
}
