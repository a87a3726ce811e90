import Foundation

/// A record as the server keeps it: its place (zone and random id), its version (1 when first written, one more at
/// each change), the zone's change number of its last write, and its sealed bytes. A deleted record is a tombstone:
/// it keeps its place and version until every device has seen it.
public struct SyncedRecord: Sendable, Equatable {
    /// The zone (one per account and access group).
    public let zone: UUID
    /// The record's random id.
    public let record: UUID
    /// The record's version.
    public let version: Int64
    /// The zone's change number of the record's last write.
    public let change: Int64
    /// The sealed bytes (what the server never opens).
    public let sealed: Data
    /// Whether the record is a tombstone.
    public let deleted: Bool

    /// A record.
    public init(zone: UUID, record: UUID, version: Int64, change: Int64, sealed: Data, deleted: Bool) {
        self.zone = zone
        self.record = record
        self.version = version
        self.change = change
        self.sealed = sealed
        self.deleted = deleted
    }
}

/// What a write of a record did.
public enum RecordWrite: Sendable, Equatable {
    /// Written: the record's new version and the zone's change number.
    case written(version: Int64, change: Int64)
    /// Not written: the record was not at the version the write expected (another device wrote it first, or it does
    /// not exist), so nothing changed; the record as the server has it, or nil when it does not exist.
    case conflict(current: SyncedRecord?)
}

/// One write of ``SyncServerSession/write(zone:_:)``.
public struct RecordWriteRequest: Sendable {
    /// The record.
    public let record: UUID
    /// The version the server must have (nil: the record must not exist yet).
    public let expectedVersion: Int64?
    /// The new sealed body.
    public let sealed: Data
    /// Whether the record becomes a tombstone.
    public let deleted: Bool

    /// A write.
    public init(record: UUID, expectedVersion: Int64?, sealed: Data, deleted: Bool) {
        self.record = record
        self.expectedVersion = expectedVersion
        self.sealed = sealed
        self.deleted = deleted
    }
}
