import BackupFormat
import Foundation
import ItemStore
import KeychainModel
import Query

extension KeychainEngine {
    /// The caller sync writes as: items keep the access group they came with, whatever it is.
    static let syncCaller = CallerContext(
        accessGroups: .unrestricted(defaultGroup: CallerContext.embeddedDefaultGroup), identity: CallerIdentity(uid: getuid(), kind: .keychain))

    /// Queues `records` pulled from `zone` and moves the zone's local cursor to `cursor`, in one transaction.
    public func receiveSyncRecords(_ records: [IncomingRecord], zone: UUID, cursor: Int64) throws(EngineRefusal) {
        try mapped { try store.write { writer in try writer.ledger.receive(records, zone: zone, cursor: cursor) } }
    }

    /// Applies `incoming`, whose opened content is `content` (nil for a tombstone), in one transaction with its mirror
    /// entry and its removal from the queue. The rules, as CKKS applies them:
    ///
    /// - A version older than the one this device has is a rollback: refused. The same version is this device's own
    ///   write: nothing to do.
    /// - The same record id: the server's newer version wins; a local change not yet sent is listed as a conflict.
    /// - Another record with the same primary key: the lower record id wins, on every device; the loser is listed
    ///   (unless both held the same item), and its record is marked for deletion from the server.
    /// - A class that is locked here leaves the record queued (``IncomingOutcome/waitingForUnlock``).
    public func applyIncoming(_ incoming: IncomingRecord, content: BackupRecord?) throws(EngineRefusal) -> IncomingOutcome {
        do {
            return try store.write { writer in try apply(incoming, content: content, writer: writer) }
        } catch let refusal as EngineRefusal {
            throw refusal
        } catch  where StatusMapping.isLocked(error) {
            return .waitingForUnlock
        } catch {
            throw StatusMapping.refusal(for: error, duplicateRule: .a1)
        }
    }

    /// Applies `records` (each with its opened content, nil for a tombstone) as ``applyIncoming(_:content:)`` does,
    /// in one transaction, so a first sync of thousands of records costs a few commits rather than one each. When one
    /// of them meets a locked class, the batch is applied one record at a time instead.
    public func applyIncoming(_ records: [(IncomingRecord, BackupRecord?)]) throws(EngineRefusal) -> [IncomingOutcome] {
        do {
            return try store.write { writer in try records.map { try apply($0.0, content: $0.1, writer: writer) } }
        } catch let refusal as EngineRefusal {
            throw refusal
        } catch  where StatusMapping.isLocked(error) {
            var outcomes: [IncomingOutcome] = []
            for (incoming, content) in records { outcomes.append(try applyIncoming(incoming, content: content)) }
            return outcomes
        } catch {
            throw StatusMapping.refusal(for: error, duplicateRule: .a1)
        }
    }

    /// Drops `incoming` from the queue without applying it (it was refused: changed by the server, or not for this
    /// account).
    public func dropIncoming(_ incoming: IncomingRecord) throws(EngineRefusal) {
        try mapped { try store.write { writer in try writer.ledger.removeIncoming(incoming) } }
    }

    /// Records pulled and not applied yet, in the server's change order.
    public func queuedSyncRecords(limit: Int = 500) throws(EngineRefusal) -> [IncomingRecord] {
        try mapped { try store.write { writer in try writer.ledger.incoming(limit: limit) } }
    }

    private func apply(_ incoming: IncomingRecord, content: BackupRecord?, writer: ItemWriter) throws -> IncomingOutcome {
        let ledger = writer.ledger
        let mirror = try ledger.mirrored(record: incoming.record)
        if let mirror, mirror.version >= incoming.version {
            try ledger.removeIncoming(incoming)
            return mirror.version == incoming.version
                ? .alreadyCurrent : .refused("the server sent version \(incoming.version) of a record this device has at \(mirror.version)")
        }
        let row = try mirror?.persistentRef.flatMap { try writer.select(ItemSelection(itemClass: mirror!.itemClass, persistentRef: $0)).first }
        guard let content, !incoming.deleted else {
            var outcome = IncomingOutcome.applied
            if let row {
                if try ledger.isPending(row.persistentRef) {
                    try keepConflict(row, writer: writer)
                    outcome = .replacedUnsentChange
                }
                try writer.delete([row])
                try ledger.clearPending(row.persistentRef)
            }
            try ledger.setMirrored(entry(incoming, itemClass: mirror?.itemClass ?? content?.itemClass ?? .genericPassword, persistentRef: nil))
            try ledger.removeIncoming(incoming)
            return outcome
        }
        let item: RestoredItem
        do {
            item = try RestoredItem(content, caller: Self.syncCaller)
        } catch {
            try ledger.removeIncoming(incoming)
            return .refused(error.reason ?? "the record holds an item this keychain may not store")
        }
        var outcome = IncomingOutcome.applied
        let stored: StoredItem
        if let row {
            if try ledger.isPending(row.persistentRef), try !holdsSameItem(row, as: item, writer: writer) {
                try keepConflict(row, writer: writer)
                outcome = .replacedUnsentChange
            }
            stored = try writer.replace(rowID: row.rowID, with: item.newItem)
        } else {
            do {
                stored = try writer.insert(item.newItem)
            } catch ItemStoreError.duplicateItem {
                guard let existing = try writer.select(ItemSelection(itemClass: item.itemClass, uniqueKey: item.newItem.uniqueKey)).first else {
                    throw ItemStoreError.duplicateItem
                }
                guard let winner = try settle(incoming, item, against: existing, writer: writer) else {
                    try ledger.removeIncoming(incoming)
                    return .primaryKeyConflict(incomingWon: false)
                }
                stored = winner
                outcome = .primaryKeyConflict(incomingWon: true)
            }
        }
        try ledger.setMirrored(entry(incoming, itemClass: item.itemClass, persistentRef: stored.persistentRef))
        try ledger.clearPending(stored.persistentRef)
        try ledger.removeIncoming(incoming)
        return outcome
    }

    /// Settles two records with one primary key: `existing` (a local row) and `incoming`. The lower record id wins. The
    /// loser's record is given a row that does not exist and marked pending, so the next push deletes it from the
    /// server. Returns the row now holding the incoming item, or nil when the local row won.
    private func settle(_ incoming: IncomingRecord, _ item: RestoredItem, against existing: StoredItem, writer: ItemWriter) throws -> StoredItem? {
        let ledger = writer.ledger
        let local =
            try ledger.mirrored(persistentRef: existing.persistentRef)
            ?? MirroredRecord(
                record: UUID(), zone: incoming.zone, persistentRef: existing.persistentRef, itemClass: existing.itemClass, version: 0,
                deleted: false, sealed: Data())
        let same = try holdsSameItem(existing, as: item, writer: writer)
        if Self.isLower(incoming.record, than: local.record) {
            if !same { try keepConflict(existing, writer: writer) }
            try retire(local, writer: writer)
            return try writer.replace(rowID: existing.rowID, with: item.newItem)
        }
        try ledger.setMirrored(local)
        if !same {
            try keepConflict(
                BackupRecord(itemClass: item.itemClass, protection: item.newItem.protection, attributes: item.newItem.attributes, secret: item.secret),
                writer: writer)
        }
        try retire(entry(incoming, itemClass: item.itemClass, persistentRef: nil), writer: writer)
        return nil
    }

    /// Marks a losing record for deletion from the server (or forgets it, when it never got there).
    private func retire(_ loser: MirroredRecord, writer: ItemWriter) throws {
        guard loser.version > 0 else { return try writer.ledger.removeMirrored(record: loser.record) }
        var retired = loser
        retired.persistentRef = withUnsafeBytes(of: UUID().uuid) { Data($0) }
        try writer.ledger.setMirrored(retired)
        try writer.ledger.markPending(retired.persistentRef!, itemClass: loser.itemClass)
    }

    /// The mirror entry of an applied `incoming` record.
    private func entry(_ incoming: IncomingRecord, itemClass: ItemClass, persistentRef: Data?) -> MirroredRecord {
        MirroredRecord(
            record: incoming.record, zone: incoming.zone, persistentRef: persistentRef, itemClass: itemClass, version: incoming.version,
            deleted: incoming.deleted, sealed: incoming.sealed)
    }

    private func holdsSameItem(_ row: StoredItem, as item: RestoredItem, writer: ItemWriter) throws -> Bool {
        do {
            return try AttributeSet(decoding: writer.openAttributes(row)) == item.attributes && writer.openSecret(row) == item.secret
        } catch  where StatusMapping.isUndecryptable(error) {
            return false
        }
    }

    /// Lists the item in `row` among the conflicts, sealed for the ledger.
    private func keepConflict(_ row: StoredItem, writer: ItemWriter) throws {
        let record: BackupRecord
        do {
            record = BackupRecord(
                itemClass: row.itemClass, protection: row.protection, attributes: try writer.openAttributes(row), secret: try writer.openSecret(row))
        } catch  where StatusMapping.isUndecryptable(error) {
            return
        }
        try keepConflict(record, writer: writer)
    }

    private func keepConflict(_ record: BackupRecord, writer: ItemWriter) throws {
        try writer.ledger.recordConflict(try sealForLedger(SyncRecordContent.content(of: record), label: Self.conflictLabel), at: clock())
    }

    /// The ledger label of conflicts.
    static let conflictLabel = "coffer-sync-conflict-v1"

    /// Whether `left` sorts before `right`, byte by byte (the order every device agrees on).
    static func isLower(_ left: UUID, than right: UUID) -> Bool {
        withUnsafeBytes(of: left.uuid) { l in withUnsafeBytes(of: right.uuid) { r in l.lexicographicallyPrecedes(r) } }
    }
}
