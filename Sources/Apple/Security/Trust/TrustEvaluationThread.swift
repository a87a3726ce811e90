import CCofferSystem
import Foundation

/// The thread trust evaluations run on: a `TaskExecutor` of its own, so that Apple's synchronous calls can wait
/// for swift-certificates' `async` verifier without needing Swift's cooperative pool.
///
/// ``SecTrustEvaluateWithError(_:_:)`` is synchronous and is often called from a Swift task. Waiting on the
/// cooperative pool for work that itself needs the pool deadlocks once every pool thread is waiting (two threads on
/// a two-core machine). So the verifier's task is started with this executor as its preference
/// (`Task(executorPreference:)`): every part of it that is not isolated to an actor runs here, and the verifier
/// and its policies are not isolated to any actor. The caller then waits on a semaphore, which blocks only its own
/// thread; this thread never waits for the pool.
///
/// Jobs run one at a time, in order. The thread starts on the first job and ends after ``idleTimeout`` without
/// one, so an idle process keeps none.
final class TrustEvaluationThread: TaskExecutor, @unchecked Sendable {
    /// The one instance of the process.
    static let shared = TrustEvaluationThread()

    /// The name the thread carries (`ps -L`, `top -H`), at most 15 bytes.
    static let threadName = "coffer-trust"

    /// How long the thread waits for a job before it ends.
    let idleTimeout: TimeInterval = 10

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var running = false

    func enqueue(_ job: consuming ExecutorJob) {
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
        coffer_name_thread(Self.threadName)
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

    /// The result of `work`, run as a task on this thread while the calling thread waits (Apple's synchronous calls).
    func wait<Value: Sendable>(for work: @escaping @Sendable () async -> Value) -> Value {
        let slot = ResultSlot<Value>()
        Task(executorPreference: self) { slot.deliver(await work()) }
        return slot.take()
    }

    /// Runs `work` as a task on this thread, then `completion` with its result; returns at once.
    func start<Value: Sendable>(_ work: @escaping @Sendable () async -> Value, then completion: @escaping @Sendable (Value) -> Void) {
        Task(executorPreference: self) { completion(await work()) }
    }
}

/// One value handed from the evaluation thread to the thread that waits for it.
private final class ResultSlot<Value: Sendable>: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    // Written once before `semaphore` is signalled, read once after it was waited for.
    private var value: Value?

    func deliver(_ value: Value) {
        self.value = value
        semaphore.signal()
    }

    func take() -> Value {
        semaphore.wait()
        return value!
    }
}
