import Crypto
import Foundation

extension AsymmetricKey {
    /// A P-256 private key another holds (a TPM): it signs, decrypts (ECIES) and agrees keys as a software P-256
    /// key does, asking the holder for each scalar multiplication. Throws `errSecParam` when the held key's public
    /// key is not a P-256 point.
    public init(held: HeldP256PrivateKey) throws(KeyCryptoError) {
        do {
            let signing = try P256.Signing.PublicKey(x963Representation: held.publicKey)
            let agreement = try P256.KeyAgreement.PublicKey(x963Representation: held.publicKey)
            self.init(material: .ecPrivate(.heldP256(held, signing, agreement)))
        } catch {
            throw .param("a held key's public key is not a P-256 point")
        }
    }

    /// Whether the private half is held elsewhere (a TPM) rather than in this process.
    public var isHeld: Bool {
        if case .ecPrivate(.heldP256) = material { return true }
        return false
    }
}
