import CryptoExtras
import Foundation

extension AsymmetricKey {
    /// `SecKeyCreateEncryptedData`: `plaintext` encrypted with this public key, in Apple's wire format for
    /// `algorithm` (RSA: a block as long as the modulus; RSA AES-GCM and ECIES: see their formats).
    ///
    /// Input longer than RSA padding leaves room for is `errSecParam`; so is an algorithm the key does not
    /// support (``isSupported(_:for:)``), a private key included.
    public func encrypt(_ plaintext: Data, algorithm: KeyAlgorithm) throws(KeyCryptoError) -> Data {
        switch (material, try supportedSpec(algorithm, for: .encrypt)) {
        case (.ecPublic(let key), .ecies(let digest, let variableIV)):
            return try ECIES.encrypt(plaintext, to: key, digest: digest, variableIV: variableIV)
        case (.rsaPublic(let key), .rsaEncryptionPKCS1):
            return try key.encrypt(plaintext, padding: ._WEAK_AND_INSECURE_PKCS_V1_5)
        case (.rsaPublic(let key), .rsaEncryptionOAEP(let digest)):
            guard let padding = _RSA.Encryption.Padding.oaep(digest) else { throw .unsupported(algorithm, by: self) }
            return try key.encrypt(plaintext, padding: padding)
        case (.rsaPublic(let key), .rsaEncryptionOAEPAESGCM(let digest)):
            guard let padding = _RSA.Encryption.Padding.oaep(digest) else { throw .unsupported(algorithm, by: self) }
            return try RSAWrappedAESGCM.encrypt(plaintext, to: key, padding: padding)
        default:
            throw .unsupported(algorithm, by: self)
        }
    }

    /// `SecKeyCreateDecryptedData`: the plaintext of `ciphertext`, which was encrypted to this private key's
    /// public key with `algorithm`.
    ///
    /// Every failure is `errSecParam`, as Apple reports it: input too short or too long, a ciphertext that
    /// does not decrypt or authenticate, an algorithm the key does not support. (Apple answers a PKCS#1 v1.5
    /// block with bad padding with pseudo-random bytes, its defence against padding oracles; swift-crypto
    /// reports an error instead.)
    public func decrypt(_ ciphertext: Data, algorithm: KeyAlgorithm) throws(KeyCryptoError) -> Data {
        switch (material, try supportedSpec(algorithm, for: .decrypt)) {
        case (.ecPrivate(let key), .ecies(let digest, let variableIV)):
            return try ECIES.decrypt(ciphertext, with: key, digest: digest, variableIV: variableIV)
        case (.rsaPrivate(let key), .rsaEncryptionPKCS1):
            return try key.decrypt(ciphertext, padding: ._WEAK_AND_INSECURE_PKCS_V1_5)
        case (.rsaPrivate(let key), .rsaEncryptionOAEP(let digest)):
            guard let padding = _RSA.Encryption.Padding.oaep(digest) else { throw .unsupported(algorithm, by: self) }
            return try key.decrypt(ciphertext, padding: padding)
        case (.rsaPrivate(let key), .rsaEncryptionOAEPAESGCM(let digest)):
            guard let padding = _RSA.Encryption.Padding.oaep(digest) else { throw .unsupported(algorithm, by: self) }
            return try RSAWrappedAESGCM.decrypt(ciphertext, with: key, padding: padding)
        default:
            throw .unsupported(algorithm, by: self)
        }
    }
}
