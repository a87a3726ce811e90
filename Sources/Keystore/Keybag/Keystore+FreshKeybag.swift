import Crypto
import KeychainModel

extension Keystore {
    /// A keybag for a new keychain, or for one erased after too many wrong passcodes: a new class key per
    /// protection class but `akpu` and a new index key, all wrapped under the device key.
    static func makeFreshKeybag(deviceKey: DeviceKey) -> Keybag {
        let wrappingKey = deviceKey.derivedKey(classWrappingLabel)
        var classKeys: [String: Keybag.WrappedClassKey] = [:]
        for protection in ProtectionClass.allCases where protection != .whenPasscodeSetThisDeviceOnly {
            // A fresh 256-bit key always wraps; a failure here would be a broken crypto library.
            let wrapped = try! AES.KeyWrap.wrap(SymmetricKey(size: .bits256), using: wrappingKey)
            classKeys[protection.rawValue] = Keybag.WrappedClassKey(protector: .device, wrapped: wrapped)
        }
        let index = try! AES.KeyWrap.wrap(SymmetricKey(size: .bits256), using: deviceKey.derivedKey(indexWrappingLabel))
        return Keybag(classKeys: classKeys, wrappedIndexKey: index)
    }
}
