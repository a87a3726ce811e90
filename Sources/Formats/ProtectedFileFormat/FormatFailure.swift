/// Why bytes are not a readable protected file. Never says anything about the content or the key.
public enum FormatFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file does not start with a protected file's magic (`CFPF`).
    case notProtected
    /// A version of the format this code does not read.
    case unsupportedVersion(UInt8)
    /// The file was changed, cut short, extended or reordered: `reason` says where it was detected.
    case damaged(reason: String)

    public var description: String {
        switch self {
        case .notProtected: "it is not a protected file (no CFPF header)"
        case .unsupportedVersion(let version): "it is a protected file of format version \(version), which this Coffer does not read"
        case .damaged(let reason): "it is damaged: \(reason)"
        }
    }
}
