import Foundation
import KeychainModel

/// An RSA private key, held by libcrypto, with its public half.
struct RSAPrivateKeyMaterial: Sendable {
    let key: LibCryptoRSAKey
    let publicKey: RSAPublicKeyMaterial

    /// The key in `der`, a PKCS#1 `RSAPrivateKey` (the only form Apple reads), whose numbers must agree.
    /// Any modulus up to 8192 bits, as Apple imports.
    init(pkcs1Representation der: Data) throws(KeyCryptoError) {
        guard PKCS1PrivateKeyShape.matches(der), let key = LibCryptoRSAKey(pkcs1PrivateKey: der) else {
            throw .param("RSA private key creation from data failed")
        }
        try self.init(key)
    }

    /// The key in `der`, a PKCS#8 `PrivateKeyInfo` holding an RSA key whose numbers agree.
    init(pkcs8Representation der: Data) throws(KeyCryptoError) {
        guard let key = LibCryptoRSAKey(pkcs8PrivateKey: der) else {
            throw .param("RSA private key creation from PKCS#8 failed")
        }
        try self.init(key)
    }

    /// A new key with a `sizeInBits`-bit modulus and exponent 65537, as Apple generates (512 to 8192 bits).
    init(generatingBits sizeInBits: Int) throws(KeyCryptoError) {
        guard RSAPublicKeyMaterial.generatedSizes.contains(sizeInBits), let key = LibCryptoRSAKey.generate(bits: sizeInBits) else {
            throw .param("failed to generate an RSA \(sizeInBits)-bit key")
        }
        try self.init(key)
    }

    fileprivate init(_ key: LibCryptoRSAKey) throws(KeyCryptoError) {
        guard let publicHalf = key.publicKey() else { throw .param("RSA public key of the private key failed") }
        self.key = key
        publicKey = try RSAPublicKeyMaterial(publicHalf)
    }

    /// PKCS#1 `RSAPrivateKey` DER: Apple's external representation of the private key. The caller clears it.
    var pkcs1Representation: Data {
        // A private key libcrypto holds always encodes; an empty answer would be refused on import.
        key.pkcs1PrivateKey ?? Data()
    }
}

extension RSAPrivateKeyMaterial {
    /// The key of SSH's numbers (big-endian): modulus, public exponent, private exponent, the primes and
    /// `q⁻¹ mod p`, whose numbers must agree. Any modulus Apple's keys have.
    init(
        modulus: Data, publicExponent: Data, privateExponent: Data, primeP: Data, primeQ: Data, coefficient: Data
    ) throws(KeyCryptoError) {
        guard
            let key = LibCryptoRSAKey(
                modulus: modulus, publicExponent: publicExponent,
                privateNumbers: (d: privateExponent, p: primeP, q: primeQ, coefficient: coefficient))
        else {
            throw .param("RSA private key creation from its numbers failed")
        }
        try self.init(key)
    }
}
