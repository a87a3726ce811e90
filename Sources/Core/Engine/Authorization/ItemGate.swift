import Foundation
import KeychainModel
import Query

/// Decides, for one matched item, whether the call may open it (§6.3, §6.4).
///
/// An item whose access control constrains reading opens only when the call's proofs meet it. Otherwise
/// the call's `kSecUseAuthenticationUI` decides: Skip leaves the item out, Fail answers -25308, Allow
/// answers -25330 (`errSecAuthNeeded`), on which the keychain service asks the person and tries again.
struct ItemGate {
    /// What to do with the item.
    enum Decision: Equatable {
        case open
        case skip
    }

    let authorization: ItemAuthorization
    let ui: AuthenticationUI

    /// The decision for an item with `attributes`; throws -25308 or -25330 as the call's UI setting says.
    func decide(_ attributes: AttributeSet) throws(KeychainStatus) -> Decision {
        guard let requirement = Self.requirement(of: attributes), !requirement.isSatisfied(by: authorization.verified) else {
            return .open
        }
        switch ui {
        case .skip: return .skip
        case .fail: throw .interactionNotAllowed
        case .allow: throw .authNeeded
        }
    }

    /// What reading an item with `attributes` requires; nil when nothing.
    static func requirement(of attributes: AttributeSet) -> AuthenticationRequirement? {
        guard case .accessControl(let control)? = attributes[QueryKey.accessControl] else { return nil }
        return AuthenticationRequirement(accessControl: control)
    }

    /// The secret of an item with `attributes`, from the bytes the store opened: the same bytes, or, for an
    /// item sealed with an application password, what the authorization's password opens. Without the
    /// password the call fails with -25308 when it may not prompt, else -25293, as a wrong password does.
    func openSealedSecret(_ stored: Data?, attributes: AttributeSet) throws(KeychainStatus) -> Data? {
        guard let stored, Self.applicationPasswordControl(of: attributes) != nil else { return stored }
        guard let password = authorization.applicationPassword else {
            throw ui == .fail ? .interactionNotAllowed : .authFailed
        }
        return try ApplicationPasswordSeal.open(stored, password: password)
    }

    /// The item's access control when its secret is sealed with an application password.
    static func applicationPasswordControl(of attributes: AttributeSet) -> AccessControl? {
        guard case .accessControl(let control)? = attributes[QueryKey.accessControl], control.needsApplicationPassword else {
            return nil
        }
        return control
    }
}
