import Crypto

extension AsymmetricKey {
    /// The RSA sizes this module generates: Apple allows 512 to 8192 bits; swift-crypto (BoringSSL) generates
    /// from 1024 bits, in multiples of 128 (another size would silently come out smaller).
    static let generatableRSASizes = stride(from: 1024, through: 8192, by: 128)

    /// A new private key (`SecKeyCreateRandomKey`): EC on P-256, P-384 or P-521, RSA with exponent 65537, or
    /// Ed25519 (256 bits).
    ///
    /// A size that cannot be generated is `errSecParam` (-50), as `SecKeyCreateRandomKey` reports it: Apple's
    /// key init refuses it with `errSecKeySizeNotAllowed`, which `SecKeyGeneratePair` does not pass on. Apple also
    /// generates RSA keys of 512 to 1023 bits and of sizes that are not a multiple of 128, which swift-crypto
    /// cannot: those are refused with the same status.
    public static func generate(type: KeyType, sizeInBits: Int) throws(KeyCryptoError) -> AsymmetricKey {
        switch type {
        case .ellipticCurve:
            guard let curve = ECCurve(sizeInBits: sizeInBits) else {
                throw .param("EC keys are generated on P-256, P-384 and P-521, not with \(sizeInBits) bits")
            }
            return AsymmetricKey(material: .ecPrivate(ECPrivateKeyMaterial(generatingOn: curve)))
        case .rsa:
            guard generatableRSASizes.contains(sizeInBits) else {
                throw .param("RSA keys are generated with 1024 to 8192 bits in steps of 128, not \(sizeInBits)")
            }
            do {
                return AsymmetricKey(material: .rsaPrivate(try RSAPrivateKeyMaterial(generatingBits: sizeInBits)))
            } catch {
                throw .param("failed to generate an RSA \(sizeInBits)-bit key")
            }
        case .ed25519:
            guard sizeInBits == 256 else {
                throw .param("Ed25519 keys are 256 bits, not \(sizeInBits)")
            }
            return AsymmetricKey(material: .edPrivate(Curve25519.Signing.PrivateKey()))
        }
    }
}
