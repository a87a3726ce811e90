import KeychainModel

/// The biometry a keychain verifies fingers with (fprintd): only the verifying side (the daemon, or an
/// embedded process) talks to it, never the program that asks.
public protocol BiometricVerifier: Sendable {
    /// Whether biometry can be used now, and the enrolled set's hash.
    func state() -> BiometryState
    /// Asks for a finger; blocks the calling thread (a thread of Coffer's own) until a result.
    func verify(reason: String) -> BiometricResult
}

/// How a biometric verification ended.
public enum BiometricResult: Sendable, Equatable {
    /// A finger matched.
    case matched
    /// No enrolled finger matched.
    case noMatch
    /// The person cancelled.
    case cancelled
    /// Nobody touched the reader in time.
    case timedOut
    /// The reader or fprintd failed.
    case unavailable(reason: String)
}
