import Foundation
import KeychainModel
import Keystore
import Query

/// What storing an access-controlled item fixes at that moment: the enrolled biometric set a
/// `biometryCurrentSet` item is bound to, and the application-password seal of its secret.
enum AccessControlBinding {
    /// `control`, bound to the enrolled set in `authorization` when it names `biometryCurrentSet`;
    /// without biometry the item cannot be stored (-25293, as a failed evaluation of its ACL).
    static func bound(_ control: AccessControl, _ authorization: ItemAuthorization) throws(EngineRefusal) -> AccessControl {
        guard control.flags.contains(.biometryCurrentSet) else { return control }
        guard let set = authorization.currentBiometrySet else {
            throw EngineRefusal(.authFailed, .a10, "kSecAccessControlBiometryCurrentSet needs enrolled fingers, and none are")
        }
        return control.binding(biometrySet: set)
    }

    /// The bytes to store for `secret` under the access control in `attributes`: sealed with the
    /// authorization's application password when the access control asks for one. Without a password the
    /// call fails: -25308 when it may not prompt, else -25293.
    static func sealed(
        _ secret: Data?, attributes: AttributeSet, _ authorization: ItemAuthorization, ui: AuthenticationUI
    ) throws(EngineRefusal) -> Data? {
        guard ItemGate.applicationPasswordControl(of: attributes) != nil else { return secret }
        guard let password = authorization.applicationPassword else { throw .applicationPasswordMissing(ui) }
        return try ApplicationPasswordSeal.seal(secret ?? Data(), password: password, kdf: .production)
    }
}
