import Crypto
import KeychainModel

extension Keystore {
    /// The passcode key: an HKDF of the device key salted with the passcode stretched by the record's KDF.
    func passcodeKey(_ passcode: SecretBytes, record: Keybag.PasscodeRecord) throws(KeystoreError) -> SymmetricKey {
        let stretched: SymmetricKey
        do {
            stretched = try record.kdf.stretch(passcode, salt: record.salt)
        } catch {
            throw .keybagDamaged(reason: "its passcode parameters are not usable")
        }
        return deviceKey.derivedKey(Self.passcodeKeyLabel, salt: stretched)
    }
}
