import Crypto
import Foundation

/// A device's own identity: its id, name and private keys (signing: P-256 and ML-DSA-65; key agreement: X-Wing),
/// all three derived from one 32-byte seed. The keystore keeps the seed sealed; nothing here writes it anywhere.
public struct DeviceIdentity: Sendable {
    /// What others know of this device.
    public let publicIdentity: DevicePublicIdentity
    private let seed: SymmetricKey
    private let signingP256: P256.Signing.PrivateKey
    private let signingMLDSA: MLDSA65.PrivateKey
    private let agreement: XWingMLKEM768X25519.PrivateKey

    /// A new device named `name`, with a new id and new keys.
    public init(name: String) throws {
        try self.init(seed: SymmetricKey(size: .bits256), id: UUID(), name: name)
    }

    /// The device whose keys derive from `seed` (32 bytes), with this id and name: how a device reopens its identity
    /// from the keystore, and how a recovery key stands for a device.
    public init(seed: SymmetricKey, id: UUID, name: String) throws {
        guard seed.bitCount == 256 else { throw DeviceIdentityError.malformed }
        func derived(_ label: String) -> SymmetricKey {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: seed, info: Data("coffer-sync-device-\(label)-v1".utf8), outputByteCount: 32)
        }
        let p256 = try derived("p256").withUnsafeBytes { try P256.Signing.PrivateKey(rawRepresentation: $0) }
        let mldsa = try derived("mldsa65").withUnsafeBytes { try MLDSA65.PrivateKey(seedRepresentation: Data($0), publicKey: nil) }
        let agreement = try derived("xwing").withUnsafeBytes {
            try XWingMLKEM768X25519.PrivateKey(seedRepresentation: Data($0), publicKey: nil)
        }
        self.seed = seed
        self.signingP256 = p256
        self.signingMLDSA = mldsa
        self.agreement = agreement
        publicIdentity = DevicePublicIdentity(
            id: id, name: name, signingP256: p256.publicKey, signingMLDSA: mldsa.publicKey, agreement: agreement.publicKey)
    }

    /// The seed the keys derive from, for the keystore to seal.
    public func withSeed<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T { try seed.withUnsafeBytes(body) }

    /// Signs `message` in `context` with both signing keys (``HybridSignature``).
    public func signature(for message: Data, context: String) throws -> Data {
        try HybridSignature.sign(message, context: context, p256: signingP256, mldsa: signingMLDSA)
    }

    /// The zone key `share` carries, if it was sealed to this device for `zone` at the key's version.
    public func openKeyShare(_ share: Data, zone: UUID, keyVersion: Int64) throws(KeyShareError) -> ZoneKey {
        try KeyShare.open(share, zone: zone, keyVersion: keyVersion, device: publicIdentity.id, with: agreement)
    }
}
