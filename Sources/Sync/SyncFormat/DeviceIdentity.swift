import Crypto
import Foundation

/// A device's own identity: its id, name and private keys (signing: P-256 and ML-DSA-65; key agreement: X-Wing). The
/// keystore keeps the private keys; nothing here writes them anywhere.
public struct DeviceIdentity: Sendable {
    /// What others know of this device.
    public let publicIdentity: DevicePublicIdentity
    private let signingP256: P256.Signing.PrivateKey
    private let signingMLDSA: MLDSA65.PrivateKey
    private let agreement: XWingMLKEM768X25519.PrivateKey

    /// A new device named `name`, with new keys.
    public init(name: String) throws {
        let p256 = P256.Signing.PrivateKey()
        let mldsa = try MLDSA65.PrivateKey()
        let agreement = try XWingMLKEM768X25519.PrivateKey.generate()
        self.signingP256 = p256
        self.signingMLDSA = mldsa
        self.agreement = agreement
        publicIdentity = DevicePublicIdentity(
            id: UUID(), name: name, signingP256: p256.publicKey, signingMLDSA: mldsa.publicKey, agreement: agreement.publicKey)
    }

    /// Signs `message` in `context` with both signing keys (``HybridSignature``).
    public func signature(for message: Data, context: String) throws -> Data {
        try HybridSignature.sign(message, context: context, p256: signingP256, mldsa: signingMLDSA)
    }

    /// The zone key `share` carries, if it was sealed to this device for `zone` at the key's version.
    public func openKeyShare(_ share: Data, zone: UUID, keyVersion: Int64) throws(KeyShareError) -> ZoneKey {
        try KeyShare.open(share, zone: zone, keyVersion: keyVersion, device: publicIdentity.id, with: agreement)
    }
}
