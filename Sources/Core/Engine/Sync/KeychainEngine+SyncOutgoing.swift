import BackupFormat
import Foundation
import ItemStore
import KeychainModel
import Query

/// A local write that sync has to send: the row's pending change, what the mirror says the server has for it, and the
/// item as stored now (nil when the row is gone or no longer syncs: the server's record becomes a tombstone).
public struct OutgoingChange: Sendable {
    /// The pending change.
    public let pending: PendingChange
    /// The record that stands for the row, if it ever reached the server (or was given an id by a conflict).
    public let mirror: MirroredRecord?
    /// The item now, when it exists and syncs.
    public let item: BackupRecord?
}

/// A page of ``OutgoingChange``s.
public struct OutgoingChanges: Sendable {
    /// Changes to send.
    public var changes: [OutgoingChange] = []
    /// Pending rows of a locked class, left for after the unlock.
    public var locked = 0
    /// The last pending sequence looked at: the next page starts after it.
    public var last: Int64 = 0
}

extension KeychainEngine {
    /// Up to `limit` pending local writes after `sequence`, with what each means for the server. A write of a row
    /// that does not sync and never reached the server is dropped from the pending changes here.
    public func outgoingChanges(after sequence: Int64 = 0, limit: Int = 200) throws(EngineRefusal) -> OutgoingChanges {
        try mapped {
            try store.write { writer in
                var page = OutgoingChanges(last: sequence)
                for pending in try writer.ledger.pendingChanges(after: sequence, limit: limit) {
                    page.last = pending.sequence
                    var mirror = try writer.ledger.mirrored(persistentRef: pending.persistentRef)
                    let item: BackupRecord?
                    do {
                        item = try currentSyncingItem(pending, writer: writer)
                    } catch  where StatusMapping.isLocked(error) {
                        page.locked += 1
                        continue
                    }
                    if item == nil, mirror == nil || mirror?.version == 0 {
                        if let mirror { try writer.ledger.removeMirrored(record: mirror.record) }
                        try writer.ledger.clearPending(pending.persistentRef, sequence: pending.sequence)
                        continue
                    }
                    if let item, mirror == nil {
                        // The record's id is chosen and kept before anything is sent: a run killed after the server
                        // stored the record sends it again under the same id, never as a second record.
                        let reserved = MirroredRecord(
                            record: UUID(), zone: Self.unplacedZone, persistentRef: pending.persistentRef, itemClass: item.itemClass,
                            version: 0, deleted: false, sealed: Data())
                        try writer.ledger.setMirrored(reserved)
                        mirror = reserved
                    }
                    page.changes.append(OutgoingChange(pending: pending, mirror: mirror, item: item))
                }
                return page
            }
        }
    }

    /// Records that `change` reached the server as `entry` (nil: its record is gone from the mirror), and drops the
    /// pending change unless the row was written again since it was read.
    public func recordSent(_ change: OutgoingChange, as entry: MirroredRecord?) throws(EngineRefusal) {
        try mapped {
            try store.write { writer in
                if let old = change.mirror, old.record != entry?.record { try writer.ledger.removeMirrored(record: old.record) }
                if let entry { try writer.ledger.setMirrored(entry) }
                try writer.ledger.clearPending(change.pending.persistentRef, sequence: change.pending.sequence)
            }
        }
    }

    /// Records several sent changes in one transaction, as ``recordSent(_:as:)`` records one.
    public func recordSent(_ sent: [(OutgoingChange, MirroredRecord?)]) throws(EngineRefusal) {
        try mapped {
            try store.write { writer in
                for (change, entry) in sent {
                    if let old = change.mirror, old.record != entry?.record { try writer.ledger.removeMirrored(record: old.record) }
                    if let entry { try writer.ledger.setMirrored(entry) }
                    try writer.ledger.clearPending(change.pending.persistentRef, sequence: change.pending.sequence)
                }
            }
        }
    }

    /// The zone of a record whose id is reserved and that has not reached the server yet.
    public static let unplacedZone = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// The row of `pending` as a record, if it exists and syncs (``SyncEligibility``).
    private func currentSyncingItem(_ pending: PendingChange, writer: ItemWriter) throws -> BackupRecord? {
        let selection = ItemSelection(itemClass: pending.itemClass, persistentRef: pending.persistentRef)
        guard let row = try writer.select(selection).first, SyncEligibility.allows(row.protection) else { return nil }
        let encoded: Data
        do {
            encoded = try writer.openAttributes(row)
        } catch  where StatusMapping.isUndecryptable(error) {
            return nil
        }
        guard SyncEligibility.syncs(try AttributeSet(decoding: encoded), in: pending.itemClass) else { return nil }
        return BackupRecord(itemClass: pending.itemClass, protection: row.protection, attributes: encoded, secret: try writer.openSecret(row))
    }
}
