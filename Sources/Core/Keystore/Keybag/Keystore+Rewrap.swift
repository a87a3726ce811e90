import Crypto
import Foundation
import KeychainModel

extension Keystore {
    /// Re-wraps A and C class keys (and `akpu` when present) under a new passcode key, or under the
    /// device key when `newPasscode` is nil. D class keys stay under the device key. In a keychain bound to a TPM the
    /// new passcode is tangled with it, and the recovery copies of the class keys are written again.
    func rewrap(
        _ keybag: inout Keybag, classKeys: [ProtectionClass: SymmetricKey], newPasscode: SecretBytes?, kdf: PasscodeKDF?
    ) throws(KeystoreError) {
        var protectorKey = deviceKey.derivedKey(Self.classWrappingLabel)
        var protector = Keybag.Protector.device
        var recoveryKey: SymmetricKey?
        keybag.passcode = nil
        keybag.recoveryClassKeys = nil
        if let newPasscode, let kdf {
            let tangled = state.withLock { $0.binding.isTPM }
            let record = Keybag.PasscodeRecord(
                salt: Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }), kdf: kdf, tangledWithTPM: tangled ? true : nil)
            (protectorKey, recoveryKey) = try passcodeKeys(newPasscode, record: record)
            protector = .passcode
            keybag.passcode = record
        }
        keybag.classKeys[ProtectionClass.whenPasscodeSetThisDeviceOnly.rawValue] = nil
        for (protection, classKey) in classKeys where protection.availability != .always {
            keybag.classKeys[protection.rawValue] = Keybag.WrappedClassKey(
                protector: protector, wrapped: try KeyWrap.wrap(classKey, with: protectorKey))
            if let recoveryKey {
                keybag.recoveryClassKeys = keybag.recoveryClassKeys ?? [:]
                keybag.recoveryClassKeys?[protection.rawValue] = try KeyWrap.wrap(classKey, with: recoveryKey)
            }
        }
        keybag.failedAttempts = 0
        keybag.lastAttemptTime = nil
    }
}
