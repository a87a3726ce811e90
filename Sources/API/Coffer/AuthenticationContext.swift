import KeychainModel
import Query

/// The Swift API's `LAContext`: a proof of the person's presence that item calls can reuse.
///
/// Make one, have ``Keychain/authenticate(_:policy:reason:reuseDuration:)`` ask the person, then pass it
/// with a query (``ItemQuery/authenticationContext``) or an add: calls that would need the person are
/// served by its proof, without another prompt, for as long as the proof lasts. The proof lives in the
/// keychain (the daemon, or this process in embedded mode), tied to the ``Keychain`` that made it; the
/// context only names it, so copying the context gives nothing to another program.
public final class AuthenticationContext: Sendable, Hashable {
    let id: AuthenticationContextID
    /// When true, a call that would need a prompt fails with `errSecInteractionNotAllowed` (-25308) instead.
    public let interactionNotAllowed: Bool

    /// A context that has proved nothing yet.
    public init(interactionNotAllowed: Bool = false) {
        id = .random()
        self.interactionNotAllowed = interactionNotAllowed
    }

    /// The `kSecUseAuthenticationContext` entry that names it.
    var queryValue: KeychainValue {
        AuthenticationContextReference(context: id, interactionNotAllowed: interactionNotAllowed).keychainValue
    }

    public static func == (lhs: AuthenticationContext, rhs: AuthenticationContext) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// What the person must prove in ``Keychain/authenticate(_:policy:reason:reuseDuration:)``.
public enum AuthenticationPolicy: Sendable, Hashable {
    /// A finger or the passcode (`LAPolicy.deviceOwnerAuthentication`, `.userPresence`).
    case userPresence
    /// The keychain passcode (`.devicePasscode`).
    case devicePasscode
    /// Any enrolled finger (`LAPolicy.deviceOwnerAuthenticationWithBiometrics`, `.biometryAny`).
    case biometry
    /// What reading an item with this access control needs (`LAContext.evaluateAccessControl`).
    case accessControl(AccessControl)

    var requirement: AuthenticationRequirement {
        switch self {
        case .userPresence: AuthenticationRequirement(factors: [.presence])
        case .devicePasscode: AuthenticationRequirement(factors: [.passcode])
        case .biometry: AuthenticationRequirement(factors: [.biometryAny])
        case .accessControl(let control): AuthenticationRequirement(accessControl: control) ?? AuthenticationRequirement(factors: [])
        }
    }
}
