import CCofferSystem
import Foundation
import Synchronization

/// Coffer's own threads, for work that blocks: the passcode KDF, SQLite writes and their `fsync`, a
/// wait on the daemon's socket. An `async` caller hands such work here and suspends, so the cooperative
/// pool is never blocked.
///
/// Threads are started on demand, up to ``maximum``, and end after ``idleTimeout`` without work: an idle
/// process keeps none running and uses no CPU. Work that has not started yet can be withdrawn
/// (``run(_:whenCancelled:)``).
public final class WorkerThreads: @unchecked Sendable {
    // Every stored property below `condition` is guarded by it.
    private let condition = NSCondition()
    private var queue: [Job] = []
    private var threads = 0
    private var idle = 0
    private var spinning = 0
    private var nextJobID: UInt64 = 0
    /// `queue.count`, readable without the lock by threads that spin for work.
    private let queued = Atomic<Int>(0)

    /// The name each worker thread carries.
    public static let threadName = "coffer-worker"

    /// The most threads running at once.
    public let maximum: Int
    /// How long a thread waits for work before it ends.
    public let idleTimeout: Duration
    /// How long a thread that finished a job looks for the next one before it sleeps (0: not at all).
    public let spinBeforeSleeping: Duration

    private struct Job {
        let id: UInt64
        let work: @Sendable () -> Void
    }

    /// A pool of at most `maximum` threads that end after `idleTimeout` without work.
    ///
    /// With `spinBeforeSleeping`, a thread that finished a job looks for the next one for that long
    /// before it sleeps (one thread at a time): waking a sleeping thread costs tens of microseconds on a virtual machine, more
    /// than many jobs take. A server answering requests one after another uses it; it costs CPU only
    /// while jobs come, and an idle pool still sleeps.
    public init(maximum: Int = 16, idleTimeout: Duration = .seconds(10), spinBeforeSleeping: Duration = .zero) {
        self.maximum = max(1, maximum)
        self.idleTimeout = idleTimeout
        self.spinBeforeSleeping = spinBeforeSleeping
    }

    /// The threads running now, busy or idle.
    public var threadCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return threads
    }

    /// Runs `work` on one of the threads, later; returns at once.
    public func submit(_ work: @escaping @Sendable () -> Void) {
        _ = enqueue(work)
    }

    /// Runs `work` on one of the threads and returns its result. When the calling task is cancelled
    /// before `work` has started, `work` never runs and `whenCancelled` is returned instead; work that
    /// has started runs to its end (a write that began is never reported as cancelled).
    public func run<Result: Sendable>(
        _ work: @escaping @Sendable () -> Result, whenCancelled: @autoclosure @escaping @Sendable () -> Result
    ) async -> Result {
        let slot = ResultSlot<Result>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
                guard slot.attach(continuation) else { return }
                let id = enqueue { slot.deliver(work()) }
                slot.setWithdraw { [weak self] in self?.withdraw(id) ?? false }
            }
        } onCancel: {
            slot.cancel(with: whenCancelled)
        }
    }

    private func enqueue(_ work: @escaping @Sendable () -> Void) -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        nextJobID &+= 1
        queue.append(Job(id: nextJobID, work: work))
        queued.store(queue.count, ordering: .releasing)
        if spinning >= queue.count {
            // A spinning thread takes it.
        } else if idle + spinning >= queue.count {
            condition.signal()
        } else if threads < maximum {
            threads += 1
            Thread { [self] in serve() }.start()
        }
        return nextJobID
    }

    /// Removes a job that has not started; false when it already has.
    private func withdraw(_ id: UInt64) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let index = queue.firstIndex(where: { $0.id == id }) else { return false }
        queue.remove(at: index)
        queued.store(queue.count, ordering: .releasing)
        return true
    }

    private func serve() {
        // The kernel's name for the thread (`ps -L`, `top -H`, debuggers), at most 15 bytes.
        coffer_name_thread(Self.threadName)
        condition.lock()
        var justWorked = false
        while true {
            // One thread spins at a time: a second would take a core from the work it waits for.
            if queue.isEmpty, justWorked, spinning == 0, spinBeforeSleeping > .zero {
                spinning += 1
                condition.unlock()
                let end = ContinuousClock.now + spinBeforeSleeping
                while queued.load(ordering: .acquiring) == 0, ContinuousClock.now < end {
                    // Lets a thread that is ready to run have the core (the event loop that is about to
                    // hand over the next job, perhaps): on two cores a spinner that never yields delays it.
                    sched_yield()
                }
                condition.lock()
                spinning -= 1
            }
            while queue.isEmpty {
                idle += 1
                let deadline = Date(timeIntervalSinceNow: Double(idleTimeout.components.seconds) + Double(idleTimeout.components.attoseconds) / 1e18)
                let signalled = condition.wait(until: deadline)
                idle -= 1
                if !signalled, queue.isEmpty {
                    threads -= 1
                    condition.unlock()
                    return
                }
            }
            let job = queue.removeFirst()
            queued.store(queue.count, ordering: .releasing)
            condition.unlock()
            job.work()
            justWorked = true
            condition.lock()
        }
    }
}

/// Where one ``WorkerThreads/run(_:whenCancelled:)`` call meets its result: resumed exactly once, by the
/// work or by cancellation, whichever comes first.
private final class ResultSlot<Result: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Result, Never>?
    private var cancelled: (@Sendable () -> Result)?
    private var withdraw: (@Sendable () -> Bool)?
    private var finished = false

    /// Keeps the continuation; false (having resumed it) when the task was cancelled first.
    func attach(_ continuation: CheckedContinuation<Result, Never>) -> Bool {
        lock.lock()
        if let cancelled {
            finished = true
            lock.unlock()
            continuation.resume(returning: cancelled())
            return false
        }
        self.continuation = continuation
        lock.unlock()
        return true
    }

    func setWithdraw(_ withdraw: @escaping @Sendable () -> Bool) {
        lock.lock()
        let pendingCancellation = finished ? nil : cancelled
        self.withdraw = withdraw
        lock.unlock()
        if let pendingCancellation { tryWithdraw(pendingCancellation) }
    }

    func deliver(_ result: Result) {
        lock.lock()
        guard !finished, let continuation else { lock.unlock(); return }
        finished = true
        self.continuation = nil
        lock.unlock()
        continuation.resume(returning: result)
    }

    func cancel(with result: @escaping @Sendable () -> Result) {
        lock.lock()
        cancelled = result
        let hasWithdraw = withdraw != nil
        lock.unlock()
        if hasWithdraw { tryWithdraw(result) }
    }

    /// Withdraws the job if it has not started, and answers with the cancellation result.
    private func tryWithdraw(_ result: @escaping @Sendable () -> Result) {
        lock.lock()
        let withdraw = self.withdraw
        lock.unlock()
        guard withdraw?() == true else { return }
        lock.lock()
        guard !finished, let continuation else { lock.unlock(); return }
        finished = true
        self.continuation = nil
        lock.unlock()
        continuation.resume(returning: result())
    }
}
