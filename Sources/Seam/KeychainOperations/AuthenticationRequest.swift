import KeychainModel
import Query

/// An authentication asked for by an `LAContext` (`evaluatePolicy`, `evaluateAccessControl`): what the person
/// must prove, what they are told, and how long the proof may be reused.
public struct AuthenticationRequest: Sendable, Hashable {
    /// The context the verified authentication is kept under, for this connection.
    public var context: AuthenticationContextID
    /// What must be proved.
    public var requirement: AuthenticationRequirement
    /// The sentence the prompt shows (`localizedReason`); the keychain adds who is asking.
    public var reason: String
    /// How long the proof serves later calls with this context (`touchIDAuthenticationAllowableReuseDuration`,
    /// at most 300 s); zero keeps it for ``AuthenticationLifetime/minimum``.
    public var reuseDuration: Duration
    /// False when the context may not prompt (`interactionNotAllowed`): a missing proof fails with
    /// `LAError.notInteractive` instead.
    public var interactive: Bool

    /// A request.
    public init(
        context: AuthenticationContextID, requirement: AuthenticationRequirement, reason: String,
        reuseDuration: Duration = .zero, interactive: Bool = true
    ) {
        self.context = context
        self.requirement = requirement
        self.reason = reason
        self.reuseDuration = reuseDuration
        self.interactive = interactive
    }
}

/// How long a verified authentication lasts.
public enum AuthenticationLifetime {
    /// `LATouchIDAuthenticationMaximumAllowableReuseDuration`: the longest reuse a context may ask for.
    public static let maximum: Duration = .seconds(300)
    /// How long a proof lasts when the context asks for no reuse: long enough for the calls that follow
    /// `evaluatePolicy` (Apple's keychain takes an evaluated context without prompting again), short
    /// enough that a context kept around does not stay open.
    public static let minimum: Duration = .seconds(10)

    /// The lifetime of a proof made with `reuseDuration`: at least ``minimum``, at most ``maximum``.
    public static func of(reuseDuration: Duration) -> Duration {
        min(max(reuseDuration, minimum), maximum)
    }
}

/// What a keychain can authenticate with now: for `canEvaluatePolicy`, `biometryType` and
/// `evaluatedPolicyDomainState`.
public struct AuthenticationCapabilities: Sendable, Hashable {
    /// Whether the keychain has a passcode (the device passcode, on Linux).
    public var passcodeSet: Bool
    /// Biometry through fprintd.
    public var biometry: BiometryState

    /// Capabilities.
    public init(passcodeSet: Bool, biometry: BiometryState) {
        self.passcodeSet = passcodeSet
        self.biometry = biometry
    }
}
