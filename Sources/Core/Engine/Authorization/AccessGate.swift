import KeychainModel
import Query

/// The one access-control gate (§6.2–§6.4): whether what an access control guards, an item's attributes and
/// secret or a kept key's use, opens with the call's proofs, and what the call gets instead when it does not.
///
/// When the proofs meet the requirement, it opens. Otherwise the call's `kSecUseAuthenticationUI` decides: Skip
/// leaves the item out, Fail answers -25308 (G19), Allow answers -25330 (`errSecAuthNeeded`) carrying the
/// requirement, on which the keychain service asks the person for exactly that and the client sends the call
/// again. The engine asks it for every matched item; the service for every use of a kept key.
public struct AccessGate: Sendable {
    /// What to do with what the requirement guards.
    public enum Decision: Sendable, Equatable {
        /// Open it.
        case open
        /// Leave it out (`kSecUseAuthenticationUISkip`).
        case skip
    }

    /// The proofs of the call's context that are still alive.
    public let verified: VerifiedFactors
    /// What the call may do when a proof is missing.
    public let ui: AuthenticationUI

    /// A gate for a call with `verified` proofs and `ui`.
    public init(verified: VerifiedFactors, ui: AuthenticationUI) {
        self.verified = verified
        self.ui = ui
    }

    /// The decision for something guarded by `requirement` (nil: nothing guards it), described as `guarded` in a
    /// refusal.
    public func decide(_ requirement: AuthenticationRequirement?, guarding guarded: @autoclosure () -> String) throws(EngineRefusal) -> Decision {
        guard let requirement, !requirement.isSatisfied(by: verified) else { return .open }
        switch ui {
        case .skip: return .skip
        case .fail: throw .mayNotPrompt(guarded(), requirement)
        case .allow: throw .authenticationNeeded(requirement)
        }
    }
}
