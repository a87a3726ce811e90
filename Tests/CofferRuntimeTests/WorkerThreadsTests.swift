import CCofferSystem
import Foundation
import CofferRuntime
import Synchronization
import Testing

/// Coffer's own threads: work runs off the cooperative pool, in parallel up to the pool's size, and a
/// cancelled task withdraws work that has not started.
@Suite("Worker threads", .timeLimit(.minutes(10)))
struct WorkerThreadsTests {
    @Test func workRunsOnACofferThreadNotOnTheCallersTask() async {
        let workers = WorkerThreads(maximum: 2)
        let name = await workers.run({ currentThreadName() }, whenCancelled: "cancelled")
        #expect(name == WorkerThreads.threadName)
        #expect(currentThreadName() != WorkerThreads.threadName)
    }

    /// Four jobs that each wait until all four have started: they finish only if they run at once.
    @Test func blockingWorkProceedsInParallel() async {
        let workers = WorkerThreads(maximum: 4)
        let barrier = Barrier(parties: 4)
        let met = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 {
                group.addTask { await workers.run({ barrier.arriveAndWait(timeout: 30) }, whenCancelled: false) }
            }
            return await group.reduce(true) { $0 && $1 }
        }
        #expect(met)
    }

    @Test func cancellingATaskWithdrawsWorkThatHasNotStarted() async {
        let workers = WorkerThreads(maximum: 1)
        let gate = Gate()
        let ran = Atomic<Bool>(false)
        // Occupy the only thread, so that the next job waits in the queue.
        let blocker = Task { await workers.run({ gate.wait() }, whenCancelled: ()) }
        while !gate.isWaiting { await Task.yield() }
        let waiting = Task {
            await workers.run(
                {
                    ran.store(true, ordering: .relaxed); return "ran"
                }, whenCancelled: "cancelled")
        }
        try? await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        #expect(await waiting.value == "cancelled")
        gate.open()
        await blocker.value
        // The withdrawn job never runs, even once the thread is free.
        await workers.run({}, whenCancelled: ())
        let didRun = ran.load(ordering: .relaxed)
        #expect(!didRun)
    }

    @Test func workThatHasStartedRunsToItsEnd() async {
        let workers = WorkerThreads(maximum: 1)
        let gate = Gate()
        let task = Task {
            await workers.run(
                {
                    gate.wait(); return "finished"
                }, whenCancelled: "cancelled")
        }
        while !gate.isWaiting { await Task.yield() }
        task.cancel()
        gate.open()
        #expect(await task.value == "finished")
    }

    @Test func idleThreadsEnd() async throws {
        let workers = WorkerThreads(maximum: 2, idleTimeout: .milliseconds(100))
        await workers.run({}, whenCancelled: ())
        var waited = 0
        while workers.threadCount > 0, waited < 300 {
            try await Task.sleep(for: .milliseconds(100))
            waited += 1
        }
        #expect(workers.threadCount == 0, "an idle pool keeps no thread")
    }

    /// Threads that spin for the next job lose none (each is run once, with its own result), and still
    /// end once jobs stop.
    @Test func aSpinningThreadTakesTheNextJobAndStillEnds() async throws {
        let workers = WorkerThreads(maximum: 4, idleTimeout: .milliseconds(100), spinBeforeSleeping: .microseconds(500))
        for index in 0..<200 {
            #expect(await workers.run({ index }, whenCancelled: -1) == index)
        }
        // Bursts: several at once, while threads spin.
        let results = await withTaskGroup(of: Int.self) { group in
            for index in 0..<64 { group.addTask { await workers.run({ index }, whenCancelled: -1) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.sorted() == Array(0..<64))
        var waited = 0
        while workers.threadCount > 0, waited < 300 {
            try await Task.sleep(for: .milliseconds(100))
            waited += 1
        }
        #expect(workers.threadCount == 0, "an idle pool keeps no thread")
    }
}

/// The kernel's name for the calling thread.
func currentThreadName() -> String {
    var buffer = [CChar](repeating: 0, count: 16)
    _ = coffer_thread_name(&buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Lets `parties` threads through once all of them have arrived.
final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private let parties: Int
    private var arrived = 0

    init(parties: Int) { self.parties = parties }

    /// Waits for the others; false when they did not all arrive within `timeout` seconds.
    func arriveAndWait(timeout: TimeInterval) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while arrived < parties {
            if !condition.wait(until: deadline) { return arrived >= parties }
        }
        return true
    }
}

/// A one-shot gate a worker thread blocks on until a test opens it.
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var opened = false
    private var waiting = false

    var isWaiting: Bool {
        condition.lock()
        defer { condition.unlock() }
        return waiting
    }

    func wait() {
        condition.lock()
        waiting = true
        while !opened { condition.wait() }
        condition.unlock()
    }

    func open() {
        condition.lock()
        opened = true
        condition.broadcast()
        condition.unlock()
    }
}
