import Query

extension LAPolicy {
    /// What the keychain must verify for the policy.
    var requirement: AuthenticationRequirement {
        switch self {
        case .deviceOwnerAuthenticationWithBiometrics: AuthenticationRequirement(factors: [.biometryAny])
        case .deviceOwnerAuthentication: AuthenticationRequirement(factors: [.presence])
        case .deviceOwnerAuthenticationWithCompanion: AuthenticationRequirement(factors: [.companion])
        case .deviceOwnerAuthenticationWithBiometricsOrCompanion: AuthenticationRequirement(factors: [.biometryAny, .companion])
        case .deviceOwnerAuthenticationWithWristDetection: AuthenticationRequirement(factors: [.companion])
        }
    }

    /// Whether a successful evaluation of the policy proves a finger (so that it sets
    /// `evaluatedPolicyDomainState`).
    var isBiometric: Bool {
        self == .deviceOwnerAuthenticationWithBiometrics || self == .deviceOwnerAuthenticationWithBiometricsOrCompanion
    }
}
