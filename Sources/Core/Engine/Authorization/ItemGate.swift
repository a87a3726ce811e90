import Foundation
import KeychainModel
import Query

/// Decides, for one matched item, whether the call may open it (§6.3, §6.4): its access control through the
/// one ``AccessGate``, and its secret sealed with an application password.
struct ItemGate {
    let authorization: ItemAuthorization
    let ui: AuthenticationUI

    /// The decision for an item with `attributes`; throws -25308 (G19) or -25330 with the item's requirement, as
    /// the call's UI setting says.
    func decide(_ attributes: AttributeSet) throws(EngineRefusal) -> AccessGate.Decision {
        try AccessGate(verified: authorization.verified, ui: ui).decide(Self.requirement(of: attributes), guarding: "the item's access control")
    }

    /// What reading an item with `attributes` requires; nil when nothing.
    static func requirement(of attributes: AttributeSet) -> AuthenticationRequirement? {
        guard case .accessControl(let control)? = attributes[QueryKey.accessControl] else { return nil }
        return AuthenticationRequirement(accessControl: control)
    }

    /// The secret of an item with `attributes`, from the bytes the store opened: the same bytes, or, for an
    /// item sealed with an application password, what the authorization's password opens. Without the
    /// password the call fails with -25308 when it may not prompt, else -25293, as a wrong password does.
    func openSealedSecret(_ stored: Data?, attributes: AttributeSet) throws(EngineRefusal) -> Data? {
        guard let stored, Self.applicationPasswordControl(of: attributes) != nil else { return stored }
        guard let password = authorization.applicationPassword else { throw .applicationPasswordMissing(ui) }
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
