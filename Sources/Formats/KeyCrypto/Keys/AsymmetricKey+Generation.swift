import Crypto

extension AsymmetricKey {
    /// A new private key (`SecKeyCreateRandomKey`): EC on P-256, P-384 or P-521, RSA with exponent 65537, or
    /// Ed25519 (256 bits).
    ///
    /// A size that cannot be generated is `errSecParam` (-50), as `SecKeyCreateRandomKey` reports it: Apple's
    /// key init refuses it with `errSecKeySizeNotAllowed`, which `SecKeyGeneratePair` does not pass on. RSA keys
    /// have any size from 512 to 8192 bits, as Apple's (those under 2048 bits are weak: see SECURITY.md).
    public static func generate(type: KeyType, sizeInBits: Int) throws(KeyCryptoError) -> AsymmetricKey {
        switch type {
        case .ellipticCurve:
            guard let curve = ECCurve(sizeInBits: sizeInBits) else {
                throw .param("EC keys are generated on P-256, P-384 and P-521, not with \(sizeInBits) bits")
            }
            return AsymmetricKey(material: .ecPrivate(ECPrivateKeyMaterial(generatingOn: curve)))
        case .rsa:
            guard RSAPublicKeyMaterial.generatedSizes.contains(sizeInBits) else {
                throw .param("RSA keys are generated with 512 to 8192 bits, not \(sizeInBits)")
            }
            return AsymmetricKey(material: .rsaPrivate(try RSAPrivateKeyMaterial(generatingBits: sizeInBits)))
        case .ed25519:
            guard sizeInBits == 256 else {
                throw .param("Ed25519 keys are 256 bits, not \(sizeInBits)")
            }
            return AsymmetricKey(material: .edPrivate(Curve25519.Signing.PrivateKey()))
        }
    }
}
