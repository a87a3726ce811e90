import Foundation

/// Where and what a sealed record claims to be: its zone, its random id, its version and whether it is a tombstone.
/// The seal binds all four, so a server that moves a record to another zone or id, replays an older version as a
/// newer one, or turns a record into a tombstone is caught when the record is opened.
public struct RecordPlace: Sendable, Equatable {
    /// The zone.
    public let zone: UUID
    /// The record's id.
    public let record: UUID
    /// The record's version as the server reports it.
    public let version: Int64
    /// Whether the record is a tombstone.
    public let deleted: Bool

    /// A place.
    public init(zone: UUID, record: UUID, version: Int64, deleted: Bool) {
        self.zone = zone
        self.record = record
        self.version = version
        self.deleted = deleted
    }

    /// The associated data of the record's seal: a label, then the place and the zone key's version, fixed-size.
    func associatedData(keyVersion: Int64) -> Data {
        var data = Data("coffer-sync-record-v1".utf8)
        withUnsafeBytes(of: zone.uuid) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: record.uuid) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: version.bigEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: keyVersion.bigEndian) { data.append(contentsOf: $0) }
        data.append(deleted ? 1 : 0)
        return data
    }
}
