extension AsymmetricKey {
    /// `SecKeyIsAlgorithmSupported`: whether this key performs `algorithm` for `operation`.
    ///
    /// True where Apple's software keys answer true: ECDSA (every form) on EC keys, ECIES (every variant), ECDH
    /// (raw and X9.63), every RSA signature (raw, PKCS#1 v1.5 and PSS with SHA-1/224/256/384/512) and every RSA
    /// encryption (raw, PKCS#1 v1.5, OAEP and its AES-GCM variants with each SHA), and Ed25519 signatures
    /// (SecKeyPriv.h's EdDSA algorithm) on Ed25519 keys. As on Apple's systems, a private key signs, decrypts and
    /// exchanges keys, a public key verifies and encrypts, and a PSS signature or an OAEP encryption needs a
    /// modulus of at least 2 × digest length + 2 bytes (PKCS#1 v1.5 encryption: 11 bytes).
    public func isSupported(_ algorithm: KeyAlgorithm, for operation: KeyOperation) -> Bool {
        guard let spec = AlgorithmSpec(algorithm) else { return false }
        return supports(spec, for: operation)
    }

    /// The spec of `algorithm` if this key performs it for `operation`; Apple's unsupported-algorithm error
    /// otherwise.
    func supportedSpec(_ algorithm: KeyAlgorithm, for operation: KeyOperation) throws(KeyCryptoError) -> AlgorithmSpec {
        guard let spec = AlgorithmSpec(algorithm), supports(spec, for: operation) else {
            throw .unsupported(algorithm, by: self)
        }
        return spec
    }

    private func supports(_ spec: AlgorithmSpec, for operation: KeyOperation) -> Bool {
        switch (material, operation, spec) {
        case (.ecPrivate, .sign, .ecdsaSignature), (.ecPublic, .verify, .ecdsaSignature),
            (.ecPublic, .encrypt, .ecies), (.ecPrivate, .decrypt, .ecies),
            (.ecPrivate, .keyExchange, .ecdh),
            (.edPrivate, .sign, .eddsaSignature), (.edPublic, .verify, .eddsaSignature):
            return true
        case (.rsaPrivate, .sign, .rsaSignatureRaw), (.rsaPublic, .verify, .rsaSignatureRaw),
            (.rsaPrivate, .sign, .rsaSignatureDigestPKCS1v15Raw), (.rsaPublic, .verify, .rsaSignatureDigestPKCS1v15Raw),
            (.rsaPublic, .verify, .rsaSignature):
            return true
        case (.rsaPrivate(let key), .sign, .rsaSignature(let padding, let data)):
            guard let digest = data.digestAlgorithm else { return false }
            // Apple refuses PSS when the modulus cannot hold the digest, the salt and the padding bytes.
            return padding == .pkcs1v15 || key.publicKey.blockSize >= 2 * digest.byteCount + 2
        case (.rsaPublic(let key), .encrypt, let spec):
            return spec.rsaEncryptionPadding.map(key.fits) ?? false
        case (.rsaPrivate(let key), .decrypt, let spec):
            return spec.rsaEncryptionPadding.map(key.publicKey.fits) ?? false
        default:
            return false
        }
    }
}
