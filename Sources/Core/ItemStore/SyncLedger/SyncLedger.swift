import Foundation
import GRDB
import KeychainModel

/// The sync ledger inside one ``ItemStore/write(_:)`` transaction (``ItemWriter/ledger``): what sync remembers
/// beside the items (settings, pending changes, the mirror, the incoming queue, cursors and conflicts), written in
/// the same transaction as the items it concerns. Its tables are described at `Schema.syncLedgerV6`.
public struct SyncLedger {
    let db: Database

    // MARK: Settings

    /// The setting `name`, or nil.
    public func setting(_ name: String) throws -> Data? {
        try ItemStore.mappingErrors { try Data.fetchOne(db, sql: "SELECT value FROM sync_settings WHERE name = ?", arguments: [name]) }
    }

    /// Sets (or, with nil, removes) the setting `name`.
    public func setSetting(_ name: String, to value: Data?) throws {
        try ItemStore.mappingErrors {
            if let value {
                try db.execute(sql: "INSERT OR REPLACE INTO sync_settings (name, value) VALUES (?, ?)", arguments: [name, value])
            } else {
                try db.execute(sql: "DELETE FROM sync_settings WHERE name = ?", arguments: [name])
            }
        }
    }

    /// Forgets everything sync remembered (settings, pending changes, mirror, queue, cursors, conflicts); the items
    /// stay.
    public func clear() throws {
        try ItemStore.mappingErrors {
            for table in ["sync_settings", "sync_pending", "sync_records", "sync_incoming", "sync_cursors", "sync_conflicts"] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
        }
    }

    // MARK: Pending changes

    /// Up to `limit` pending changes after `sequence`, oldest first.
    public func pendingChanges(after sequence: Int64 = 0, limit: Int) throws -> [PendingChange] {
        try ItemStore.mappingErrors {
            try Row.fetchAll(
                db, sql: "SELECT pref, class, seq FROM sync_pending WHERE seq > ? ORDER BY seq LIMIT ?", arguments: [sequence, limit]
            ).compactMap { row in
                guard let itemClass = ItemClass(rawValue: row["class"]) else { return nil }
                return PendingChange(persistentRef: row["pref"], itemClass: itemClass, sequence: row["seq"])
            }
        }
    }

    /// Records a change of `persistentRef` as a write would (a row that no longer exists, or never did, stands for a
    /// deletion).
    public func markPending(_ persistentRef: Data, itemClass: ItemClass) throws {
        try ItemStore.mappingErrors {
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO sync_pending (pref, class, seq)
                    VALUES (?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM sync_pending))
                    """,
                arguments: [persistentRef, itemClass.rawValue])
        }
    }

    /// Records every row of the item tables as pending: what joining an account does, so that the items already
    /// here are sent.
    public func markEveryRowPending() throws {
        try ItemStore.mappingErrors {
            for table in Schema.syncedTables {
                for persistentRef in try Data.fetchAll(db, sql: "SELECT pref FROM \(table) ORDER BY rowid") {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO sync_pending (pref, class, seq) VALUES (?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM sync_pending))",
                        arguments: [persistentRef, table])
                }
            }
        }
    }

    /// Whether `persistentRef` has a pending change.
    public func isPending(_ persistentRef: Data) throws -> Bool {
        try ItemStore.mappingErrors { try Row.fetchOne(db, sql: "SELECT 1 FROM sync_pending WHERE pref = ?", arguments: [persistentRef]) != nil }
    }

    /// Removes the pending change of `persistentRef`, only if no later write replaced it since it was read as
    /// `sequence` (nil: whatever it is).
    public func clearPending(_ persistentRef: Data, sequence: Int64? = nil) throws {
        try ItemStore.mappingErrors {
            if let sequence {
                try db.execute(sql: "DELETE FROM sync_pending WHERE pref = ? AND seq = ?", arguments: [persistentRef, sequence])
            } else {
                try db.execute(sql: "DELETE FROM sync_pending WHERE pref = ?", arguments: [persistentRef])
            }
        }
    }

    // MARK: Mirror

    /// The mirror entry of `record`.
    public func mirrored(record: UUID) throws -> MirroredRecord? {
        try mirrored(where: "record = ?", record.ledgerBytes)
    }

    /// The mirror entry that stands for the local row `persistentRef`.
    public func mirrored(persistentRef: Data) throws -> MirroredRecord? {
        try mirrored(where: "pref = ?", persistentRef)
    }

    /// Every mirror entry of `zone`.
    public func mirrored(zone: UUID) throws -> [MirroredRecord] {
        try ItemStore.mappingErrors {
            try Row.fetchAll(db, sql: "SELECT * FROM sync_records WHERE zone = ?", arguments: [zone.ledgerBytes]).compactMap(Self.mirrored(from:))
        }
    }

    /// Writes `entry` (replacing the entry of its record).
    public func setMirrored(_ entry: MirroredRecord) throws {
        try ItemStore.mappingErrors {
            try db.execute(
                sql: "INSERT OR REPLACE INTO sync_records (record, zone, pref, class, version, deleted, sealed) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [
                    entry.record.ledgerBytes, entry.zone.ledgerBytes, entry.persistentRef, entry.itemClass.rawValue, entry.version,
                    entry.deleted, entry.sealed,
                ])
        }
    }

    /// Removes the mirror entry of `record`.
    public func removeMirrored(record: UUID) throws {
        try ItemStore.mappingErrors { try db.execute(sql: "DELETE FROM sync_records WHERE record = ?", arguments: [record.ledgerBytes]) }
    }

    private func mirrored(where condition: String, _ value: Data) throws -> MirroredRecord? {
        try ItemStore.mappingErrors {
            try Row.fetchOne(db, sql: "SELECT * FROM sync_records WHERE \(condition)", arguments: [value]).flatMap(Self.mirrored(from:))
        }
    }

    private static func mirrored(from row: Row) -> MirroredRecord? {
        guard let record = UUID(ledgerBytes: row["record"]), let zone = UUID(ledgerBytes: row["zone"]),
            let itemClass = ItemClass(rawValue: row["class"])
        else { return nil }
        return MirroredRecord(
            record: record, zone: zone, persistentRef: row["pref"], itemClass: itemClass, version: row["version"],
            deleted: row["deleted"], sealed: row["sealed"] ?? Data())
    }

    // MARK: Incoming queue and cursors

    /// Queues `records` pulled from `zone` and moves the zone's cursor to `cursor`, together. A record already
    /// queued is replaced by a newer version of it.
    public func receive(_ records: [IncomingRecord], zone: UUID, cursor: Int64) throws {
        try ItemStore.mappingErrors {
            for record in records {
                try db.execute(
                    sql: """
                        INSERT INTO sync_incoming (zone, record, version, change, deleted, sealed) VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (zone, record) DO UPDATE SET version = excluded.version, change = excluded.change,
                        deleted = excluded.deleted, sealed = excluded.sealed WHERE excluded.version > sync_incoming.version
                        """,
                    arguments: [record.zone.ledgerBytes, record.record.ledgerBytes, record.version, record.change, record.deleted, record.sealed])
            }
            try db.execute(sql: "INSERT OR REPLACE INTO sync_cursors (zone, change) VALUES (?, ?)", arguments: [zone.ledgerBytes, cursor])
        }
    }

    /// Up to `limit` queued records, in the server's change order.
    public func incoming(limit: Int) throws -> [IncomingRecord] {
        try ItemStore.mappingErrors {
            try Row.fetchAll(db, sql: "SELECT * FROM sync_incoming ORDER BY change LIMIT ?", arguments: [limit]).compactMap { row in
                guard let zone = UUID(ledgerBytes: row["zone"]), let record = UUID(ledgerBytes: row["record"]) else { return nil }
                return IncomingRecord(
                    zone: zone, record: record, version: row["version"], change: row["change"], deleted: row["deleted"], sealed: row["sealed"])
            }
        }
    }

    /// Removes `record` from the queue (applied or refused).
    public func removeIncoming(_ record: IncomingRecord) throws {
        try ItemStore.mappingErrors {
            try db.execute(
                sql: "DELETE FROM sync_incoming WHERE zone = ? AND record = ? AND version = ?",
                arguments: [record.zone.ledgerBytes, record.record.ledgerBytes, record.version])
        }
    }

    /// The last server change of `zone` pulled into the queue (0 before the first pull).
    public func cursor(zone: UUID) throws -> Int64 {
        try ItemStore.mappingErrors {
            try Int64.fetchOne(db, sql: "SELECT change FROM sync_cursors WHERE zone = ?", arguments: [zone.ledgerBytes]) ?? 0
        }
    }

    // MARK: Conflicts

    /// Keeps a conflict's sealed record.
    public func recordConflict(_ sealed: Data, at date: Date) throws {
        try ItemStore.mappingErrors {
            try db.execute(sql: "INSERT INTO sync_conflicts (at, sealed) VALUES (?, ?)", arguments: [date.timeIntervalSince1970, sealed])
        }
    }

    /// The conflicts kept, oldest first, after dropping those settled before `cutoff`.
    public func conflicts(droppingBefore cutoff: Date) throws -> [RecordedConflict] {
        try ItemStore.mappingErrors {
            try db.execute(sql: "DELETE FROM sync_conflicts WHERE at < ?", arguments: [cutoff.timeIntervalSince1970])
            return try Row.fetchAll(db, sql: "SELECT id, at, sealed FROM sync_conflicts ORDER BY id").map { row in
                RecordedConflict(id: row["id"], at: Date(timeIntervalSince1970: row["at"]), sealed: row["sealed"])
            }
        }
    }

    // MARK: Status

    /// How much the ledger holds.
    public func counts() throws -> LedgerCounts {
        try ItemStore.mappingErrors {
            func count(_ table: String) throws -> Int { try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
            return LedgerCounts(
                pending: try count("sync_pending"), mirrored: try count("sync_records"), incoming: try count("sync_incoming"),
                conflicts: try count("sync_conflicts"))
        }
    }
}

extension ItemWriter {
    /// The sync ledger, in this transaction.
    public var ledger: SyncLedger { SyncLedger(db: writes.db) }
}

extension ItemStore {
    /// Starts recording every write of the item tables in the ledger's pending changes (idempotent).
    public func startTrackingChanges() throws {
        try write { writer in
            try Self.mappingErrors { for statement in Schema.changeTrackingSQL { try writer.writes.db.execute(sql: statement) } }
        }
    }

    /// Stops recording writes (idempotent).
    public func stopTrackingChanges() throws {
        try write { writer in
            try Self.mappingErrors {
                let triggers = try String.fetchAll(
                    writer.writes.db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sync_track_%'")
                for trigger in triggers { try writer.writes.db.execute(sql: "DROP TRIGGER IF EXISTS \(trigger)") }
            }
        }
    }

    /// Whether writes are being recorded (read on a reader connection: no write lock is taken).
    public func isTrackingChanges() throws -> Bool {
        try read { reader in try reader.reads.isTrackingChanges() }
    }
}
