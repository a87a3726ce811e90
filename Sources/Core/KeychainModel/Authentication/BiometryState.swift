/// Whether this keychain can use biometry now, and the enrolled set it would verify against.
public enum BiometryState: Sendable, Hashable {
    /// No reader, or no fprintd to ask: biometric policies fail with `LAError.biometryNotAvailable`.
    case notAvailable(reason: String)
    /// A reader, but no enrolled fingers: `LAError.biometryNotEnrolled`.
    case notEnrolled
    /// Fingers are enrolled; `domainState` changes whenever the enrolled set does (`evaluatedPolicyDomainState`).
    case available(domainState: [UInt8])
}
