import Foundation
import KeychainModel
import TrustedPlatformModule

// P-256 keys made inside the TPM (`kSecAttrTokenIDSecureEnclave`, CryptoKit's `SecureEnclave.P256`): the keystore
// owns the TPM, so the layers above ask it for each operation, after they have checked the key's access control.
extension Keystore {
    /// Whether a P-256 key the keychain keeps is made inside the TPM: the keychain is bound to one.
    public var keepsKeysInTPM: Bool { state.withLock { $0.binding.isTPM } }

    /// Makes a P-256 key inside the TPM that signs and agrees: its TPM-wrapped form (usable only with this TPM) and
    /// its public key (X9.63).
    public func createTPMKey() throws(KeystoreError) -> (wrapped: Data, publicKey: Data) {
        let tpm = try boundTPM()
        do {
            let key = try tpm.createECCKey()
            return (key.blob, key.publicKey)
        } catch {
            throw .tpmUnavailable(reason: error.reason)
        }
    }

    /// An ECDSA signature, raw r‖s, of a 32-byte value with the TPM key `wrapped` (load, sign, flush).
    public func tpmSignature(wrapped: Data, value: Data) throws(KeystoreError) -> Data {
        do {
            return try boundTPM().sign(keyBlob: wrapped, digest: value)
        } catch let error as TPMError {
            throw .tpmUnavailable(reason: error.reason)
        } catch {
            throw error as? KeystoreError ?? .tpmUnavailable(reason: "\(error)")
        }
    }

    /// The ECDH secret (x coordinate) of the TPM key `wrapped` with `peer` (X9.63): load, agree, flush.
    public func tpmKeyAgreement(wrapped: Data, peer: Data) throws(KeystoreError) -> SecretBytes {
        do {
            return try boundTPM().keyAgreement(keyBlob: wrapped, peer: peer)
        } catch let error as TPMError {
            throw .tpmUnavailable(reason: error.reason)
        } catch {
            throw error as? KeystoreError ?? .tpmUnavailable(reason: "\(error)")
        }
    }

    private func boundTPM() throws(KeystoreError) -> any TPMDevice {
        guard case .tpm(let tpm, _) = state.withLock({ $0.binding }) else {
            throw .tpmUnavailable(reason: "this key was made inside a TPM, and the keychain is not bound to one now")
        }
        return tpm
    }
}
