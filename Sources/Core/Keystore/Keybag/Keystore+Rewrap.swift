import Crypto
import Foundation
import KeychainModel

extension Keystore {
    /// Re-wraps A and C class keys (and `akpu` when present) under a new passcode key, or under the
    /// device key when `newPasscode` is nil. D class keys stay under the device key.
    func rewrap(
        _ keybag: inout Keybag, classKeys: [ProtectionClass: SymmetricKey], newPasscode: SecretBytes?, kdf: PasscodeKDF?
    ) throws(KeystoreError) {
        var protectorKey = deviceKey.derivedKey(Self.classWrappingLabel)
        var protector = Keybag.Protector.device
        keybag.passcode = nil
        if let newPasscode, let kdf {
            let record = Keybag.PasscodeRecord(salt: Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }), kdf: kdf)
            protectorKey = try passcodeKey(newPasscode, record: record)
            protector = .passcode
            keybag.passcode = record
        }
        keybag.classKeys[ProtectionClass.whenPasscodeSetThisDeviceOnly.rawValue] = nil
        for (protection, classKey) in classKeys where protection.availability != .always {
            keybag.classKeys[protection.rawValue] = Keybag.WrappedClassKey(
                protector: protector, wrapped: try KeyWrap.wrap(classKey, with: protectorKey))
        }
        keybag.failedAttempts = 0
        keybag.lastAttemptTime = nil
    }
}
