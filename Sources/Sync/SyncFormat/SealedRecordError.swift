/// Why a sealed record was refused: it is never opened, applied or returned in part.
public enum SealedRecordError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a sealed record of this format (too short, another magic).
    case malformed
    /// Sealed under a zone key version this device does not hold.
    case unknownKeyVersion(Int64)
    /// The seal does not verify: the record was changed, moved, replayed or sealed under another key.
    case tampered

    public var description: String {
        switch self {
        case .malformed: "the server sent a record that is not in Coffer's sealed format"
        case .unknownKeyVersion(let version): "the record is sealed under zone key version \(version), which this device does not hold"
        case .tampered: "the server sent a record whose seal does not verify (changed, moved, replayed or rolled back): refused"
        }
    }
}
