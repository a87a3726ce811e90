import CofferRuntime
import KeychainService
import Synchronization

/// Runs blocking work on the daemon's worker threads with at most ``perUser`` jobs of one uid running at
/// once; further jobs of that uid wait in its own queue, in order. However many requests one user
/// sends, at most that many of the shared threads are theirs, and another user's job waits behind at
/// most that many of theirs.
final class PerUserWorkQueue: Sendable {
    private typealias Job = @Sendable () -> Void

    /// One uid's waiting jobs (a queue with a moving head, so taking one is O(1)).
    private struct Waiting {
        var jobs: [Job] = []
        var head = 0
        var isEmpty: Bool { head == jobs.count }

        mutating func take() -> Job {
            let job = jobs[head]
            head += 1
            if head == jobs.count { jobs.removeAll(keepingCapacity: false); head = 0 }
            return job
        }
    }

    private struct State {
        var running: [UInt32: Int] = [:]
        var waiting: [UInt32: Waiting] = [:]
    }

    private let state = Mutex(State())
    private let workers: WorkerThreads
    /// The most jobs of one uid running at once.
    let perUser: Int

    /// A queue running at most `perUser` jobs of one uid at once on `workers`.
    init(workers: WorkerThreads, perUser: Int) {
        self.workers = workers
        self.perUser = perUser
    }

    /// Whether jobs of `uid` wait for a slot (a job polling for more work gives its slot up then).
    func hasWaiting(for uid: UInt32) -> Bool {
        state.withLock { $0.waiting[uid] != nil }
    }

    /// Runs `job` for `uid` as soon as fewer than ``perUser`` of that uid's jobs run; returns at once.
    func submit(for uid: UInt32, _ job: @escaping @Sendable () -> Void) {
        let startNow = state.withLock { state -> Bool in
            let running = state.running[uid, default: 0]
            if running < perUser {
                state.running[uid] = running + 1
                return true
            }
            state.waiting[uid, default: Waiting()].jobs.append(job)
            return false
        }
        guard startNow else { return }
        workers.submit { [self] in
            var next: Job? = job
            // The thread goes on with this uid's waiting jobs, keeping its slot; it gives the slot back
            // when none waits.
            while let current = next {
                current()
                next = state.withLock { state -> Job? in
                    if var waiting = state.waiting[uid], !waiting.isEmpty {
                        let job = waiting.take()
                        state.waiting[uid] = waiting.isEmpty ? nil : waiting
                        return job
                    }
                    let running = state.running[uid, default: 1] - 1
                    state.running[uid] = running > 0 ? running : nil
                    return nil
                }
            }
        }
    }
}
