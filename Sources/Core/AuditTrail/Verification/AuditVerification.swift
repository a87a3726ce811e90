/// What `verify` found: a journal whose every record is the journal's own, in order, up to the last one written;
/// or the first place where it is not.
public enum AuditVerification: Sendable, Equatable {
    /// Every kept record opened and chained; `rotatedAway` records before `firstSequence` were removed by rotation,
    /// as the oldest kept segment's header says.
    case intact(records: Int, firstSequence: UInt64, lastSequence: UInt64, rotatedAway: UInt64)
    /// The first damage found, where, and what it means.
    case damaged(file: String, sequence: UInt64?, reason: String)

    /// Whether nothing was found wrong.
    public var isIntact: Bool {
        if case .intact = self { return true }
        return false
    }
}
