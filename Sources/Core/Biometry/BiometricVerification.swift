/// How one biometric verification ended.
public enum BiometricVerification: Sendable, Hashable {
    /// An enrolled finger matched.
    case matched
    /// A finger was read and matched none of the enrolled ones.
    case noMatch
    /// The verification was stopped before it had a result.
    case cancelled
    /// No result came before the deadline.
    case timedOut
    /// No verification could be made: no fprintd, no reader, no enrolled finger, the reader in use by
    /// another program or disconnected. `reason` says which, for people.
    case unavailable(reason: String)
}
