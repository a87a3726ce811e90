import Foundation
import KeychainModel

/// What a keychain knows of its sync across machines, without asking the server: whether it has joined an
/// account, what waits on each side, and how the last background run ended.
public struct SyncState: Sendable, Equatable {
    /// Whether the keychain has joined a sync account (`coffer sync setup` or `join`).
    public var isSyncing: Bool
    /// Local writes of synchronizable items not sent yet.
    public var pending: Int
    /// Records this device has seen on the server, tombstones included.
    public var mirrored: Int
    /// Records pulled from the server that wait for the keychain to be unlocked before they are applied.
    public var waitingForUnlock: Int
    /// Items conflicts removed in the last 30 days (`coffer sync status --conflicts` lists them).
    public var conflicts: Int
    /// How the last background run ended; nil where no background sync runs (an embedded keychain, a daemon
    /// that has not finished a run yet).
    public var lastRun: SyncRunOutcome?

    /// A state.
    public init(isSyncing: Bool, pending: Int = 0, mirrored: Int = 0, waitingForUnlock: Int = 0, conflicts: Int = 0, lastRun: SyncRunOutcome? = nil) {
        self.isSyncing = isSyncing
        self.pending = pending
        self.mirrored = mirrored
        self.waitingForUnlock = waitingForUnlock
        self.conflicts = conflicts
        self.lastRun = lastRun
    }
}

/// How a sync run ended.
public enum SyncRunOutcome: Sendable, Equatable {
    /// It finished at `at`, having done what the report counts.
    case synced(SyncReport, at: Date)
    /// It failed at `at` (the server away, a refused password, a damaged record); background sync tries again.
    case failed(reason: String, at: Date)

    /// When the run ended.
    public var date: Date {
        switch self {
        case .synced(_, let at), .failed(_, let at): at
        }
    }
}
