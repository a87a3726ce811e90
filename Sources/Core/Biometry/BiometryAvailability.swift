/// What biometry a keychain can use now.
public enum BiometryAvailability: Sendable, Hashable {
    /// No biometry: no fprintd on the bus, no fingerprint reader, or fprintd refused to answer. `reason`
    /// says which, for people (it is not meant to be parsed).
    case notAvailable(reason: String)
    /// A fingerprint reader, but the user has no enrolled fingers.
    case notEnrolled
    /// A reader and enrolled fingers. `enrolledSetHash` (32 bytes) identifies the set of enrolled fingers:
    /// it changes when a finger is enrolled or deleted, and is what `LAContext.evaluatedPolicyDomainState`
    /// reports.
    case available(enrolledSetHash: [UInt8])
}
