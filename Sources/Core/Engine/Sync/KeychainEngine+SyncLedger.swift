import BackupFormat
import Foundation
import ItemStore
import KeychainModel

/// An item a sync conflict removed, opened from the ledger.
public struct SyncConflict: Sendable {
    /// When the conflict was settled.
    public let at: Date
    /// The item that lost, with its data.
    public let record: BackupRecord
}

extension KeychainEngine {
    /// How long conflicts are kept for people to look at.
    public static let conflictRetention: TimeInterval = 30 * 24 * 3600

    /// The sync settings named `names` that are set.
    public func syncSettings(_ names: [String]) throws(EngineRefusal) -> [String: Data] {
        try mapped {
            try store.write { writer in
                var values: [String: Data] = [:]
                for name in names { values[name] = try writer.ledger.setting(name) }
                return values
            }
        }
    }

    /// Sets (nil: removes) sync settings, in one transaction.
    public func setSyncSettings(_ values: [String: Data?]) throws(EngineRefusal) {
        try mapped { try store.write { writer in for (name, value) in values { try writer.ledger.setSetting(name, to: value) } } }
    }

    /// Starts syncing: every later write of an item is recorded for sync, the items already here are marked to be
    /// sent, and `settings` are stored, the last two in one transaction.
    public func startSyncing(settings: [String: Data]) throws(EngineRefusal) {
        try mapped {
            try store.startTrackingChanges()
            try store.write { writer in
                try writer.ledger.markEveryRowPending()
                for (name, value) in settings { try writer.ledger.setSetting(name, to: value) }
            }
        }
    }

    /// Stops syncing: writes are no longer recorded and the ledger is emptied. The items stay.
    public func stopSyncing() throws(EngineRefusal) {
        try mapped {
            try store.stopTrackingChanges()
            try store.write { writer in try writer.ledger.clear() }
        }
    }

    /// The last server change of `zone` pulled into the queue.
    public func syncCursor(zone: UUID) throws(EngineRefusal) -> Int64 {
        try mapped { try store.write { writer in try writer.ledger.cursor(zone: zone) } }
    }

    /// How much the sync ledger holds.
    public func syncLedgerCounts() throws(EngineRefusal) -> LedgerCounts {
        try mapped { try store.write { writer in try writer.ledger.counts() } }
    }

    /// The items conflicts removed in the last ``conflictRetention``, oldest first (older ones are dropped here).
    /// Opening them needs the keychain unlocked once since it started.
    public func syncConflicts() throws(EngineRefusal) -> [SyncConflict] {
        let kept = try mapped { try store.write { writer in try writer.ledger.conflicts(droppingBefore: clock().addingTimeInterval(-Self.conflictRetention)) } }
        var conflicts: [SyncConflict] = []
        for conflict in kept {
            let content = try openFromLedger(conflict.sealed, label: Self.conflictLabel)
            do {
                conflicts.append(SyncConflict(at: conflict.at, record: try SyncRecordContent.record(from: content)))
            } catch {
                throw EngineRefusal(.decode, nil, "a kept sync conflict is damaged: \(error)")
            }
        }
        return conflicts
    }
}

extension KeychainEngine {
    /// A signal after each write of this engine's items commits (coalesced), for background sync.
    public func itemChanges() -> AsyncStream<Void> { store.commits() }
}

extension KeychainEngine {
    /// Whether this keychain has joined a sync account (its writes are recorded for sync).
    public var isSyncing: Bool {
        get throws(EngineRefusal) { try mapped { try store.isTrackingChanges() } }
    }
}
