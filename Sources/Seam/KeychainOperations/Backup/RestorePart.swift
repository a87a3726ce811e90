import KeychainModel

/// Names a restore whose records arrive in parts (``Request/stageRestore(_:)``) before one
/// ``Request/restoreBackup(_:)`` writes them all. The front end picks it at random; the keychain keeps the parts
/// under it and under the caller that staged them, so another caller naming the same identifier never reaches them.
public struct RestoreStagingID: Sendable, Hashable, CustomStringConvertible {
    /// The identifier's value.
    public let value: UInt64

    /// An identifier with the given value.
    public init(_ value: UInt64) { self.value = value }

    /// A fresh random identifier.
    public static func random() -> RestoreStagingID {
        var generator = SystemRandomNumberGenerator()
        return RestoreStagingID(generator.next())
    }

    /// The value in hexadecimal.
    public var description: String { String(value, radix: 16) }
}

/// What ``Request/stageRestore(_:)`` carries: one part of a backup's record stream, cut on record boundaries and
/// itself a complete record stream (BackupFormat's `BackupRecordStream`, with the part's own record count).
///
/// Parts are numbered from 0 and must arrive in order on one connection: a part whose predecessors the keychain
/// does not hold for this caller (its connection broke, or it was abandoned) is refused, so a restore never writes
/// a backup's later parts without its earlier ones.
public struct RestorePart: Sendable, Equatable {
    /// The restore the part belongs to.
    public var staging: RestoreStagingID
    /// The part's place in the restore, from 0.
    public var index: Int
    /// The part's records, in zeroizing memory.
    public var records: SecretBytes

    /// A part.
    public init(staging: RestoreStagingID, index: Int, records: SecretBytes) {
        self.staging = staging
        self.index = index
        self.records = records
    }
}
