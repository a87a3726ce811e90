import Engine
import Foundation
import KeychainModel
import Logging
import SyncServer
import Synchronization

/// Keeps a keychain in step with its account for as long as it runs, as the daemon does: one connection to the
/// server, listening for the account's wake-ups; a sync run when the server says another device wrote, when this
/// keychain's items change, and once a minute regardless (a server without `NOTIFY` is polled); a server that is
/// away is tried again after 1 s, then twice as long each time up to 5 minutes. A ``SyncTrigger`` asks for a run at
/// once, whatever it waits for.
public struct BackgroundSync: Sendable {
    let sync: KeychainSync
    let pollInterval: Duration
    let events: AsyncStream<SyncEvent>.Continuation?
    let trigger: SyncTrigger
    private let identities = DeviceIdentityCache()

    /// Background sync of `sync`'s keychain; each run's start and outcome are also sent to `events`, and `trigger`
    /// starts a run at once.
    public init(
        sync: KeychainSync, pollInterval: Duration = .seconds(60), events: AsyncStream<SyncEvent>.Continuation? = nil,
        trigger: SyncTrigger = SyncTrigger()
    ) {
        self.sync = sync
        self.pollInterval = pollInterval
        self.events = events
        self.trigger = trigger
    }

    /// Runs until the task is cancelled.
    public func run() async {
        var backoff = Duration.seconds(1)
        while !Task.isCancelled {
            guard (try? sync.isSetUp) == true else {
                // Not syncing: look again when the items change (a setup in this process), when asked, or after a while.
                await firstOf(sync.engine.itemChanges(), trigger.requests(), timeout: .seconds(30))
                continue
            }
            let connectedOnce = ConnectedFlag()
            do {
                try await listeningSession(connected: connectedOnce)
            } catch is CancellationError {
                return
            } catch {
                if connectedOnce.isSet { backoff = .seconds(1) }
                sync.logger.notice("background sync paused", metadata: ["reason": "\(error)", "retry in": "\(backoff)"])
                events?.yield(.failed("\(error)"))
                await firstOf(trigger.requests(), timeout: backoff)
                backoff = min(backoff * 2, .seconds(300))
            }
        }
    }

    /// One connection's life: a run at once, then one per wake-up (coalesced), until the connection fails. Each
    /// connection watches the items through a stream of its own: a stream whose reader was cancelled is finished.
    private func listeningSession(connected: ConnectedFlag) async throws {
        let changes = sync.engine.itemChanges()
        let requests = trigger.requests()
        let account = try LocalAccount.load(from: sync.engine, identities: identities)
        try await sync.connected(account.endpoint, account.password) { (session) async throws(SyncError) in
            do {
                try await session.listeningForWrites { notifications in
                    let (wakeUps, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for try await _ in notifications { wake.yield() }
                            throw SyncError.server("the server closed the connection")
                        }
                        group.addTask {
                            for await _ in changes { wake.yield() }
                            try Task.checkCancellation()
                        }
                        group.addTask {
                            for await _ in requests { wake.yield() }
                            try Task.checkCancellation()
                        }
                        group.addTask {
                            while !Task.isCancelled {
                                try await Task.sleep(for: pollInterval)
                                wake.yield()
                            }
                        }
                        group.addTask {
                            var reported: [UUID: Int64] = [:]
                            try await runOnce(session: session, reported: &reported)
                            connected.set()
                            for await _ in wakeUps { try await runOnce(session: session, reported: &reported) }
                        }
                        try await group.next()
                        group.cancelAll()
                    }
                }
            } catch {
                throw SyncError.converted(error)
            }
        }
    }

    /// One run on the session's connection; `reported` carries the cursors told to the server from run to run.
    private func runOnce(session: SyncServerSession, reported: inout [UUID: Int64]) async throws {
        let account = try LocalAccount.load(from: sync.engine, identities: identities)
        var replica = SyncReplica(engine: sync.engine, account: account, session: session, logger: sync.logger, workers: sync.workers)
        replica.reportedCursors = reported
        events?.yield(.started)
        try await replica.run(replayingTheLogOnlyWhenItChanged: true)
        reported = replica.reportedCursors ?? [:]
        events?.yield(.synced(replica.report))
    }

    /// Returns when one of `signals` signals, or `timeout` has passed.
    private func firstOf(_ signals: AsyncStream<Void>..., timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            for signal in signals {
                group.addTask {
                    var iterator = signal.makeAsyncIterator()
                    _ = await iterator.next()
                }
            }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }
}

/// Whether a connection got as far as a first run (then the back-off starts again from 1 s).
final class ConnectedFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

/// What background sync did.
public enum SyncEvent: Sendable, Equatable {
    /// A run started (connected, about to pull).
    case started
    /// A run finished.
    case synced(SyncReport)
    /// A run or the connection failed; it is tried again later.
    case failed(String)
}
