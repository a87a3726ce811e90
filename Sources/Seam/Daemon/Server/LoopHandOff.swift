import NIOCore
import Synchronization

/// Hands work from the worker threads to the event loop while the loop runs, and drops it once the
/// server has closed the hand-off for the loop's shutdown.
///
/// A worker may finish after the server stopped waiting for it: a request that waited on a person, or
/// a worker still polling a socket. The loop it would wake is then being torn down, and NIO cannot
/// take a task then (its wake-up descriptor may already be closed). Every hand-off from another
/// thread goes through here, under the same lock as ``close()``.
final class LoopHandOff: Sendable {
    private let isOpen = Mutex<Bool>(true)

    /// Runs `task` on `loop` unless the hand-off is closed; from any thread.
    func execute(on loop: any EventLoop, _ task: @escaping @Sendable () -> Void) {
        isOpen.withLock { open in
            if open { loop.execute(task) }
        }
    }

    /// Drops every later hand-off; the server calls it before shutting its event loop down.
    func close() {
        isOpen.withLock { $0 = false }
    }
}
