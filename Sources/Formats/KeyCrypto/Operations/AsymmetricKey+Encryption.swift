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
        case (.rsaPublic(let key), .rsaEncryptionOAEPAESGCM(let digest)):
            return try RSAWrappedAESGCM.encrypt(plaintext, to: key, padding: .oaep(digest: digest))
        case (.rsaPublic(let key), let spec):
            guard let padding = spec.rsaEncryptionPadding else { throw .unsupported(algorithm, by: self) }
            return try key.encrypt(plaintext, padding: padding)
        default:
            throw .unsupported(algorithm, by: self)
        }
    }

    /// `SecKeyCreateDecryptedData`: the plaintext of `ciphertext`, which was encrypted to this private key's
    /// public key with `algorithm`.
    ///
    /// Every failure is `errSecParam`, as Apple reports it: input too short or too long, a ciphertext that
    /// does not decrypt or authenticate, an algorithm the key does not support. (Apple answers a PKCS#1 v1.5
    /// block with bad padding with pseudo-random bytes, its defence against padding oracles; Coffer reports an
    /// error instead.) A raw decryption is the whole block, as long as the modulus.
    public func decrypt(_ ciphertext: Data, algorithm: KeyAlgorithm) throws(KeyCryptoError) -> Data {
        switch (material, try supportedSpec(algorithm, for: .decrypt)) {
        case (.ecPrivate(let key), .ecies(let digest, let variableIV)):
            return try ECIES.decrypt(ciphertext, with: key, digest: digest, variableIV: variableIV)
        case (.rsaPrivate(let key), .rsaEncryptionOAEPAESGCM(let digest)):
            return try RSAWrappedAESGCM.decrypt(ciphertext, with: key, padding: .oaep(digest: digest))
        case (.rsaPrivate(let key), let spec):
            guard let padding = spec.rsaEncryptionPadding else { throw .unsupported(algorithm, by: self) }
            return try key.decrypt(ciphertext, padding: padding)
        default:
            throw .unsupported(algorithm, by: self)
        }
    }
}
