import Foundation

extension AsymmetricKey {
    /// The RSA public key of `modulus` and `publicExponent` (big-endian, leading zeros allowed), as SSH and
    /// JWK carry them. Numbers that make no key Apple's RSA takes are `errSecParam`.
    public init(rsaModulus modulus: Data, publicExponent: Data) throws(KeyCryptoError) {
        self.init(material: .rsaPublic(try RSAPublicKeyMaterial(modulus: modulus, publicExponent: publicExponent)))
    }

    /// The RSA private key of SSH's numbers (big-endian): modulus, public and private exponents, the primes and
    /// `q⁻¹ mod p` (`iqmp`); the other CRT values are derived. Numbers that do not agree are `errSecParam`.
    /// The caller clears its copies of the private numbers.
    public init(
        rsaModulus modulus: Data, publicExponent: Data, privateExponent: Data, primeP: Data, primeQ: Data, coefficient: Data
    ) throws(KeyCryptoError) {
        self.init(
            material: .rsaPrivate(
                try RSAPrivateKeyMaterial(
                    modulus: modulus, publicExponent: publicExponent, privateExponent: privateExponent, primeP: primeP,
                    primeQ: primeQ, coefficient: coefficient)))
    }
}
