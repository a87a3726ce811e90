import KeychainModel

/// How long the keystore refuses unlock attempts after consecutive wrong passcodes (Apple's schedule).
public struct ThrottlePolicy: Sendable, Hashable {
    /// Failures after which the class keys are erased, when the owner opted in.
    public static let eraseThreshold = PasscodePolicy.eraseThreshold

    /// Creates the policy.
    public init() {}

    /// The wait imposed after `failedAttempts` consecutive failures:
    /// 1–4 none, 5 → 1 min, 6 → 5 min, 7–8 → 15 min, 9 and later → 1 h.
    public func delay(afterFailedAttempts failedAttempts: Int) -> Duration {
        switch failedAttempts {
        case ..<5: .zero
        case 5: .seconds(60)
        case 6: .seconds(5 * 60)
        case 7, 8: .seconds(15 * 60)
        default: .seconds(60 * 60)
        }
    }
}
