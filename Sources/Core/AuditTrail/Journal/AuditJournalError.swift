/// Why the audit journal could not be written or read.
public enum AuditJournalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A record could not be written (a full disk, a folder that is not the journal's): the operation it records
    /// is refused when the keychain is set to refuse secret reads it cannot record.
    case unwritable(String)
    /// The journal's files could not be read.
    case unreadable(String)

    public var description: String {
        switch self {
        case .unwritable(let reason): "the audit journal cannot be written: \(reason)"
        case .unreadable(let reason): "the audit journal cannot be read: \(reason)"
        }
    }
}
