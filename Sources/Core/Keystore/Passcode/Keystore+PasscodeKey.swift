import Crypto
import KeychainModel
import TrustedPlatformModule

extension Keystore {
    static let tangledPasscodeKeyLabel = "coffer passcode key through the TPM v1"
    static let recoveryPasscodeKeyLabel = "coffer recovery passcode key v1"

    /// The passcode key: an HKDF of the device key salted with the passcode stretched by the record's KDF and, when
    /// the record is tangled with the TPM, then run through the TPM's HMAC key (passcode → scrypt → TPM HMAC → key),
    /// so that a guess needs this TPM as well as the device key.
    func passcodeKey(_ passcode: SecretBytes, record: Keybag.PasscodeRecord) throws(KeystoreError) -> SymmetricKey {
        try passcodeKeys(passcode, record: record).key
    }

    /// ``passcodeKey(_:record:)`` and, for a record tangled with the TPM, the recovery passcode key (an HKDF of the
    /// device key salted with the stretched passcode alone), from one run of the KDF.
    func passcodeKeys(
        _ passcode: SecretBytes, record: Keybag.PasscodeRecord
    ) throws(KeystoreError) -> (key: SymmetricKey, recovery: SymmetricKey?) {
        let stretched = try stretch(passcode, record: record)
        guard record.tangledWithTPM == true else { return (deviceKey.derivedKey(Self.passcodeKeyLabel, salt: stretched), nil) }
        guard case .tpm(let tpm, let sealed) = state.withLock({ $0.binding }) else {
            throw .tpmUnavailable(reason: "the passcode is tangled with a TPM this keychain is no longer bound to; \(Self.recoveryAdvice)")
        }
        let mixed: SecretBytes
        do {
            mixed = try tpm.hmac(keyBlob: sealed.passcodeHMACKey, stretched.withUnsafeBytes { SecretBytes(copying: $0) })
        } catch {
            throw .tpmUnavailable(reason: error.reason)
        }
        let key = mixed.withUnsafeBytes { deviceKey.derivedKey(Self.tangledPasscodeKeyLabel, salt: SymmetricKey(data: $0)) }
        return (key, deviceKey.derivedKey(Self.recoveryPasscodeKeyLabel, salt: stretched))
    }

    /// The recovery passcode key alone (the TPM is not asked): what opens ``Keybag/recoveryClassKeys``.
    func recoveryPasscodeKey(_ passcode: SecretBytes, record: Keybag.PasscodeRecord) throws(KeystoreError) -> SymmetricKey {
        deviceKey.derivedKey(Self.recoveryPasscodeKeyLabel, salt: try stretch(passcode, record: record))
    }

    private func stretch(_ passcode: SecretBytes, record: Keybag.PasscodeRecord) throws(KeystoreError) -> SymmetricKey {
        do {
            return try record.kdf.stretch(passcode, salt: record.salt)
        } catch {
            throw .keybagDamaged(reason: "its passcode parameters are not usable")
        }
    }
}
