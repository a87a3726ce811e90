import CofferDiagnostics
import CofferRuntime
import Engine
import Foundation
import KeychainModel
import KeychainOperations
import KeychainService
import SyncClient
import Synchronization

/// One user's sync inside the daemon: runs ``BackgroundSync`` over the keychain for as long as the daemon keeps it
/// open, and answers ``Request/syncState(changedFrom:)`` and ``Request/syncNow`` from what it does.
final class SyncMonitor: Sendable {
    typealias Reply = @Sendable (Response) -> Void

    /// The longest a ``Request/syncNow`` waits for its run before it is answered with a failure.
    static let runWaitLimit: Duration = .seconds(120)

    private let engine: KeychainEngine
    private let sync: KeychainSync
    private let pendingJoin = PendingJoinSlot()
    private let trigger = SyncTrigger()
    private let board = SyncBoard()
    /// Where the ledger is read for answers given from the background tasks (SQLite blocks).
    private let workers = WorkerThreads(maximum: 1)
    private let tasks: [Task<Void, Never>]

    init(engine: KeychainEngine) {
        self.engine = engine
        let sync = KeychainSync(engine: engine, logger: DiagnosticsLevel.logger(label: "coffer.sync"))
        self.sync = sync
        let (events, continuation) = AsyncStream.makeStream(of: SyncEvent.self)
        let (board, workers, trigger) = (board, workers, trigger)
        let changes = engine.itemChanges()
        tasks = [
            Task.detached { await BackgroundSync(sync: sync, events: continuation, trigger: trigger).run() },
            Task.detached {
                for await event in events { board.record(event, answeringFrom: engine, on: workers) }
            },
            Task.detached {
                for await _ in changes { board.answerChangedStates(of: engine, on: workers) }
            },
        ]
    }

    deinit { for task in tasks { task.cancel() } }

    /// Answers ``Request/syncState(changedFrom:)``: at once without `known` or when the state differs from it,
    /// else when it changes or ``Request/syncStateWaitLimit`` has passed. Blocks (the ledger is read here).
    func state(changedFrom known: SyncState?, reply: @escaping Reply) {
        guard let known else { return reply(KeychainService.syncStateAnswer(of: engine, lastRun: board.lastRun)) }
        // Waiting first, then reading: a change that lands in between answers the waiter rather than being missed.
        let id = board.waitForChange(from: known, reply: reply)
        let answer = KeychainService.syncStateAnswer(of: engine, lastRun: board.lastRun)
        if answer != .syncState(known) {
            board.takeStateWaiter(id)?(answer)
            return
        }
        let (board, engine, workers) = (board, engine, workers)
        Task.detached {
            try? await Task.sleep(for: Request.syncStateWaitLimit)
            guard let reply = board.takeStateWaiter(id) else { return }
            workers.submit { reply(KeychainService.syncStateAnswer(of: engine, lastRun: board.lastRun)) }
        }
    }

    /// Answers ``Request/syncNow``: starts a background run at once and answers with its report when it ends.
    /// Blocks (the ledger is read here).
    func runNow(reply: @escaping Reply) {
        switch KeychainService.syncStateAnswer(of: engine, lastRun: nil) {
        case .syncState(let state) where !state.isSyncing:
            return reply(.failure(.notAvailable, reason: "this keychain does not sync: join an account with `coffer sync setup` or `coffer sync join`"))
        case .syncState:
            break
        case let refusal:
            return reply(refusal)
        }
        let id = board.waitForRun(reply: reply)
        trigger.fire()
        let board = board
        Task.detached {
            try? await Task.sleep(for: Self.runWaitLimit)
            board.takeRunWaiter(id)?(.failure(.io, reason: "no sync run finished within \(Self.runWaitLimit); the server may be slow or away"))
        }
    }
}

extension SyncMonitor {
    /// Answers ``Request/syncAccount(_:)`` once the step is done (a join's approval may take minutes).
    func manageAccount(_ request: SyncAccountRequest, reply: @escaping Reply) {
        let steps = SyncAccountSteps(sync: sync, pendingJoin: pendingJoin, trigger: trigger)
        Task.detached { reply(await steps.answer(request)) }
    }
}

/// What the monitor knows of the runs, and the requests waiting on them. Each waiter is removed under the lock
/// before it is answered, so it is answered once.
final class SyncBoard: Sendable {
    private struct RunWaiter {
        var sawStart = false
        let reply: SyncMonitor.Reply
    }

    private struct StateWaiter {
        let known: SyncState
        let reply: SyncMonitor.Reply
    }

    private struct State {
        var lastRun: SyncRunOutcome?
        var runWaiters: [UUID: RunWaiter] = [:]
        var stateWaiters: [UUID: StateWaiter] = [:]
    }

    private let state = Mutex(State())

    var lastRun: SyncRunOutcome? { state.withLock { $0.lastRun } }

    func waitForChange(from known: SyncState, reply: @escaping SyncMonitor.Reply) -> UUID {
        let id = UUID()
        state.withLock { $0.stateWaiters[id] = StateWaiter(known: known, reply: reply) }
        return id
    }

    func takeStateWaiter(_ id: UUID) -> SyncMonitor.Reply? {
        state.withLock { $0.stateWaiters.removeValue(forKey: id)?.reply }
    }

    func waitForRun(reply: @escaping SyncMonitor.Reply) -> UUID {
        let id = UUID()
        state.withLock { $0.runWaiters[id] = RunWaiter(reply: reply) }
        return id
    }

    func takeRunWaiter(_ id: UUID) -> SyncMonitor.Reply? {
        state.withLock { $0.runWaiters.removeValue(forKey: id)?.reply }
    }

    /// Notes what background sync did: a run that ends answers the ``Request/syncNow`` requests that were waiting
    /// when it started (a failure answers them all), and the state waiters whose state it changed.
    func record(_ event: SyncEvent, answeringFrom engine: KeychainEngine, on workers: WorkerThreads) {
        let finished: [(SyncMonitor.Reply, Response)] = state.withLock { state in
            switch event {
            case .started:
                for id in state.runWaiters.keys { state.runWaiters[id]?.sawStart = true }
                return []
            case .synced(let report):
                state.lastRun = .synced(report, at: Date())
                let done = state.runWaiters.filter(\.value.sawStart)
                for id in done.keys { state.runWaiters[id] = nil }
                return done.values.map { ($0.reply, .syncReport(report)) }
            case .failed(let reason):
                state.lastRun = .failed(reason: reason, at: Date())
                defer { state.runWaiters = [:] }
                return state.runWaiters.values.map { ($0.reply, .failure(.io, reason: "sync failed: \(reason)")) }
            }
        }
        for (reply, response) in finished { reply(response) }
        if event != .started { answerChangedStates(of: engine, on: workers) }
    }

    /// Answers the state waiters whose state is no longer the one they know (read on `workers`).
    func answerChangedStates(of engine: KeychainEngine, on workers: WorkerThreads) {
        guard state.withLock({ !$0.stateWaiters.isEmpty }) else { return }
        workers.submit { [self] in
            let answer = KeychainService.syncStateAnswer(of: engine, lastRun: lastRun)
            let changed: [SyncMonitor.Reply] = state.withLock { state in
                let ids = state.stateWaiters.filter { answer != .syncState($0.value.known) }.keys
                return ids.compactMap { state.stateWaiters.removeValue(forKey: $0)?.reply }
            }
            for reply in changed { reply(answer) }
        }
    }
}
