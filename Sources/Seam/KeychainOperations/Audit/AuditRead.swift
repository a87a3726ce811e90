import KeychainModel

/// ``Request/auditRecords(_:)``: which records to read, and the passcode that lets the owner read them.
public struct AuditRead: Sendable, Equatable {
    /// The keychain's passcode; nil when none is set.
    public var passcode: SecretBytes?
    /// Records after this sequence number (0: from the oldest kept).
    public var after: UInt64
    /// At most this many records in one answer; the caller asks again after the last.
    public var limit: Int
    /// Whether the answer also says whether the whole journal verifies.
    public var verify: Bool

    /// The most records one answer holds.
    public static let largestLimit = 4096

    /// A read.
    public init(passcode: SecretBytes?, after: UInt64 = 0, limit: Int = 1000, verify: Bool = false) {
        self.passcode = passcode
        self.after = after
        self.limit = limit
        self.verify = verify
    }
}

/// What ``Request/auditRecords(_:)`` answers: records in order, and, when asked, the journal's check.
public struct AuditPage: Sendable, Equatable {
    public var records: [AuditRecord]
    /// Whether more records follow the last one here.
    public var hasMore: Bool
    public var check: AuditCheck?

    public init(records: [AuditRecord], hasMore: Bool, check: AuditCheck? = nil) {
        self.records = records
        self.hasMore = hasMore
        self.check = check
    }
}

/// Whether the audit journal verifies: every kept record opened and followed the one before it, up to the last
/// written; or where it does not.
public enum AuditCheck: Sendable, Equatable {
    /// `rotatedAway` records before `firstSequence` were removed by rotation.
    case intact(records: Int, firstSequence: UInt64, lastSequence: UInt64, rotatedAway: UInt64)
    /// The first damage found: in which file, at which record, and what it means.
    case damaged(file: String, sequence: UInt64?, reason: String)
}
