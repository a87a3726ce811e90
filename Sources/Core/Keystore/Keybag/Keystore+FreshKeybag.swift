import Crypto
import KeychainModel

extension Keystore {
    /// A keybag for a new keychain, or for one erased after too many wrong passcodes: a new class key per
    /// protection class but `akpu` and a new index key, all wrapped under the device key, and file class B's
    /// key pair.
    static func makeFreshKeybag(deviceKey: DeviceKey) -> Keybag {
        let wrappingKey = deviceKey.derivedKey(classWrappingLabel)
        var classKeys: [String: Keybag.WrappedClassKey] = [:]
        var classA: SymmetricKey?
        for protection in ProtectionClass.allCases where protection != .whenPasscodeSetThisDeviceOnly {
            let classKey = SymmetricKey(size: .bits256)
            if protection == .whenUnlocked { classA = classKey }
            // A fresh 256-bit key always wraps; a failure here would be a broken crypto library.
            let wrapped = try! AES.KeyWrap.wrap(classKey, using: wrappingKey)
            classKeys[protection.rawValue] = Keybag.WrappedClassKey(protector: .device, wrapped: wrapped)
        }
        let index = try! AES.KeyWrap.wrap(SymmetricKey(size: .bits256), using: deviceKey.derivedKey(indexWrappingLabel))
        var keybag = Keybag(classKeys: classKeys, wrappedIndexKey: index)
        keybag.fileClassB = FileClassBKeys.makePair(classA: ClassKeyMaterial(classKey: classA!, protection: .whenUnlocked))
        return keybag
    }
}
