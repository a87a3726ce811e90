import Crypto
import KeychainModel

extension Keystore {
    /// Every class key the keybag wraps under the device key (D class keys; A and C too while no passcode is set).
    func unwrapDeviceProtectedClassKeys(_ keybag: Keybag) throws(KeystoreError) -> [ProtectionClass: SymmetricKey] {
        let key = deviceKey.derivedKey(Self.classWrappingLabel)
        var classKeys: [ProtectionClass: SymmetricKey] = [:]
        for protection in ProtectionClass.allCases {
            guard let wrapped = keybag.classKeys[protection.rawValue], wrapped.protector == .device else { continue }
            classKeys[protection] = try KeyWrap.unwrap(wrapped.wrapped, with: key)
        }
        return classKeys
    }
}
