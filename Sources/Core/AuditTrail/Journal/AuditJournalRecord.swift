/// One record read back from the journal: its sequence number and the payload it sealed.
public struct AuditJournalRecord: Sendable, Hashable {
    public let sequence: UInt64
    public let payload: [UInt8]
}
