import Foundation
import KeychainModel

/// What a keychain asks of a TPM: its storage root key, sealing, the passcode's HMAC key, and P-256 keys that sign
/// and agree inside it.
///
/// ``PlatformTPM`` speaks to the TPM itself; ``TPMServiceClient`` asks the system cofferd, which owns the TPM, for
/// users who may not open it. Either blocks the calling thread for the TPM's time: keychains call from their worker
/// threads, never from Swift's cooperative pool.
public protocol TPMDevice: AnyObject, Sendable {
    /// Where the TPM is reached: a tpm2-tss TCTI configuration, or `cofferd:PATH` for the system cofferd's service.
    var tcti: String { get }
    /// The storage root key the TPM answered with when this connection opened.
    var storageRootKey: StorageRootKey { get }
    /// The TPM operations asked for through this connection so far, for the figures.
    var commandsSent: Int { get }

    /// Seals up to 128 bytes: only this TPM, with the same owner seed, unseals them, and only while the PCRs `pcrs`
    /// names hold their present values.
    func seal(_ secret: SecretBytes, pcrs: PCRSelection) throws(TPMError) -> Data
    /// Unseals what ``seal(_:pcrs:)`` sealed with the same PCRs.
    func unseal(_ blob: Data, pcrs: PCRSelection) throws(TPMError) -> SecretBytes
    /// Makes an HMAC-SHA256 key inside the TPM; its wrapped form is only usable with this TPM.
    func createHMACKey() throws(TPMError) -> Data
    /// HMAC-SHA256 of `input` (at most 1,024 bytes) under the key `keyBlob` wraps.
    func hmac(keyBlob: Data, _ input: SecretBytes) throws(TPMError) -> SecretBytes
    /// Makes an ECC P-256 key inside the TPM: its wrapped form and its public key (`04 ‖ x ‖ y`).
    func createECCKey() throws(TPMError) -> (blob: Data, publicKey: Data)
    /// An ECDSA signature, raw r ‖ s (64 bytes), over a SHA-256 digest.
    func sign(keyBlob: Data, digest: Data) throws(TPMError) -> Data
    /// The x coordinate of the ECDH shared point with `peer` (X9.63, 65 bytes).
    func keyAgreement(keyBlob: Data, peer: Data) throws(TPMError) -> SecretBytes
}

extension TPMDevice {
    /// Seals up to 128 bytes to this TPM alone, whatever the boot state.
    public func seal(_ secret: SecretBytes) throws(TPMError) -> Data { try seal(secret, pcrs: .none) }

    /// Unseals what ``seal(_:)`` sealed.
    public func unseal(_ blob: Data) throws(TPMError) -> SecretBytes { try unseal(blob, pcrs: .none) }
}
