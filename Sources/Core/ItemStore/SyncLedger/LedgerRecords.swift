import Foundation
import KeychainModel

/// A row of an item table written since sync last looked: what ``SyncLedger/pendingChanges(limit:)`` lists.
public struct PendingChange: Sendable, Equatable {
    /// The row's persistent reference (the row may be gone: a delete is a change too).
    public let persistentRef: Data
    /// The row's class.
    public let itemClass: ItemClass
    /// Where the write stands among the others; a later write of the same row gets a larger one.
    public let sequence: Int64
}

/// A record of the mirror: a record this device wrote to the server or applied from it.
public struct MirroredRecord: Sendable, Equatable {
    /// The record's random id.
    public var record: UUID
    /// Its zone.
    public var zone: UUID
    /// The local row it stands for; nil for a tombstone.
    public var persistentRef: Data?
    /// The class of the item.
    public var itemClass: ItemClass
    /// The server version this device last wrote or applied.
    public var version: Int64
    /// Whether the record is a tombstone.
    public var deleted: Bool
    /// The record's sealed body as the server holds it at ``version``.
    public var sealed: Data

    /// A mirror entry.
    public init(record: UUID, zone: UUID, persistentRef: Data?, itemClass: ItemClass, version: Int64, deleted: Bool, sealed: Data) {
        self.record = record
        self.zone = zone
        self.persistentRef = persistentRef
        self.itemClass = itemClass
        self.version = version
        self.deleted = deleted
        self.sealed = sealed
    }
}

/// A record pulled from the server and not applied yet, sealed as received.
public struct IncomingRecord: Sendable, Equatable {
    /// Its zone.
    public let zone: UUID
    /// Its random id.
    public let record: UUID
    /// The version the server reported.
    public let version: Int64
    /// The server change that wrote it.
    public let change: Int64
    /// Whether the server reported it as a tombstone.
    public let deleted: Bool
    /// Its sealed body.
    public let sealed: Data

    /// An incoming record.
    public init(zone: UUID, record: UUID, version: Int64, change: Int64, deleted: Bool, sealed: Data) {
        self.zone = zone
        self.record = record
        self.version = version
        self.change = change
        self.deleted = deleted
        self.sealed = sealed
    }
}

/// An item a conflict removed, as the engine sealed it, with when.
public struct RecordedConflict: Sendable, Equatable {
    /// Its number in the ledger.
    public let id: Int64
    /// When the conflict was settled.
    public let at: Date
    /// What the engine sealed (the removed item and why).
    public let sealed: Data
}

/// How much the ledger holds, for a status report.
public struct LedgerCounts: Sendable, Equatable {
    /// Rows written and not yet looked at by sync.
    public var pending = 0
    /// Records mirrored, tombstones included.
    public var mirrored = 0
    /// Records pulled and waiting to be applied.
    public var incoming = 0
    /// Conflicts kept.
    public var conflicts = 0
}

extension UUID {
    /// The 16 bytes of the id, as the ledger stores it.
    var ledgerBytes: Data { withUnsafeBytes(of: uuid) { Data($0) } }

    /// The id from 16 stored bytes; nil for anything else.
    init?(ledgerBytes bytes: Data) {
        guard bytes.count == 16 else { return nil }
        let b = [UInt8](bytes)
        self.init(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
