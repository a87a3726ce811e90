import Foundation

/// What an ``LAContext`` keeps, under its lock.
struct ContextState {
    /// Set by `invalidate()`: every evaluation fails from then on.
    var invalidated = false
    /// `touchIDAuthenticationAllowableReuseDuration`, between 0 and 300 s.
    var reuseDuration: TimeInterval = 0
    var localizedReason = ""
    var localizedFallbackTitle: String?
    var localizedCancelTitle: String?
    var interactionNotAllowed = false
    var domainState: Data?
    var biometryType: LABiometryType = .none
    /// The credential types set on the context (the credentials themselves are kept by the keychain).
    var credentials: Set<LACredentialType> = []
    /// Whether an evaluation ever succeeded (the keychain then holds a proof to drop when the context goes).
    var everProved = false
    /// Evaluations under way, by token.
    var pending: [UInt64: PendingEvaluation] = [:]
    var nextToken: UInt64 = 1
}
