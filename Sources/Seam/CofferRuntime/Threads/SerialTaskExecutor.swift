import CCofferSystem
import Foundation

/// A `TaskExecutor` of one thread of its own, so that synchronous calls can wait for `async` work without needing
/// Swift's cooperative pool.
///
/// A synchronous function (Apple's `SecTrustEvaluateWithError`) is often called from a Swift task. Waiting on the
/// cooperative pool for work that itself needs the pool deadlocks once every pool thread is waiting (two threads on
/// a two-core machine). So the work is started with this executor as its preference (`Task(executorPreference:)`):
/// every part of it that is not isolated to an actor runs here. The caller then waits on a semaphore, which blocks
/// only its own thread; this thread never waits for the pool.
///
/// Jobs run one at a time, in order. The thread starts on the first job and ends after ``idleTimeout`` without one,
/// so an idle process keeps none.
public final class SerialTaskExecutor: TaskExecutor, @unchecked Sendable {
    /// The name the thread carries (`ps -L`, `top -H`), at most 15 bytes.
    public let threadName: String
    /// How long the thread waits for a job before it ends.
    public let idleTimeout: TimeInterval

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var running = false

    /// An executor whose thread is named `threadName` and ends after `idleTimeout` seconds without work.
    public init(threadName: String, idleTimeout: TimeInterval = 10) {
        self.threadName = threadName
        self.idleTimeout = idleTimeout
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        defer { condition.unlock() }
        jobs.append(job)
        if running {
            condition.signal()
        } else {
            running = true
            Thread { [self] in serve() }.start()
        }
    }

    private func serve() {
        coffer_name_thread(threadName)
        condition.lock()
        while true {
            if jobs.isEmpty {
                let deadline = Date(timeIntervalSinceNow: idleTimeout)
                while jobs.isEmpty, condition.wait(until: deadline) {}
                if jobs.isEmpty {
                    running = false
                    condition.unlock()
                    return
                }
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            condition.lock()
        }
    }

    /// The result of `work`, run as a task on this thread while the calling thread waits (a synchronous call).
    public func wait<Value: Sendable>(for work: @escaping @Sendable () async -> Value) -> Value {
        let slot = BlockingResult<Value>()
        Task(executorPreference: self) { slot.deliver(await work()) }
        return slot.take()
    }

    /// Runs `work` as a task on this thread, then `completion` with its result; returns at once.
    public func start<Value: Sendable>(_ work: @escaping @Sendable () async -> Value, then completion: @escaping @Sendable (Value) -> Void) {
        Task(executorPreference: self) { completion(await work()) }
    }
}
