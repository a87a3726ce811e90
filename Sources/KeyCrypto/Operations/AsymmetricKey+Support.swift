extension AsymmetricKey {
    /// `SecKeyIsAlgorithmSupported`: whether this key performs `algorithm` for `operation`.
    ///
    /// True exactly where Apple's software keys answer true and swift-crypto can do the same: ECDSA (every
    /// form) on EC keys, ECIES (every variant), ECDH (raw and X9.63), RSA PKCS#1 v1.5 and PSS signatures with
    /// SHA-1/256/384/512, RSA PKCS#1 v1.5 and OAEP SHA-1/SHA-256 encryption, the OAEP SHA-1/SHA-256
    /// AES-GCM variants, and Ed25519 signatures (SecKeyPriv.h's EdDSA algorithm) on Ed25519 keys. False for what swift-crypto cannot back: raw RSA, RSA with SHA-224, OAEP with
    /// SHA-224/384/512. As on Apple's systems, a private key signs, decrypts and exchanges keys, a public key
    /// verifies and encrypts, and an RSA-PSS signature needs a modulus of at least 16 × digest length + 9 bits.
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
        case (.rsaPrivate, .sign, .rsaSignature(let padding, let data)):
            guard let digest = data.digestAlgorithm else { return false }
            // Apple refuses PSS when the modulus cannot hold the digest, the salt and the padding bits.
            let fits = padding == .pkcs1v15 || sizeInBits >= 16 * digest.byteCount + 9
            return fits && Self.rsaSignatureBacked(data)
        case (.rsaPublic, .verify, .rsaSignature(_, let data)):
            return Self.rsaSignatureBacked(data)
        case (.rsaPublic, .encrypt, let spec), (.rsaPrivate, .decrypt, let spec):
            return Self.rsaEncryptionBacked(spec)
        default:
            return false
        }
    }

    /// swift-crypto's RSA signs SHA-1/256/384/512 digests; a digest the caller computed must be rebuilt as
    /// swift-crypto's own value (``SwiftCryptoDigest``).
    private static func rsaSignatureBacked(_ data: SignedData) -> Bool {
        switch data {
        case .anyDigest, .digest(.sha224), .message(.sha224): false
        case .digest: SwiftCryptoDigest.isAvailable
        case .message: true
        }
    }

    /// swift-crypto's RSA encrypts with PKCS#1 v1.5 and with OAEP over SHA-1 or SHA-256.
    private static func rsaEncryptionBacked(_ spec: AlgorithmSpec) -> Bool {
        switch spec {
        case .rsaEncryptionPKCS1: true
        case .rsaEncryptionOAEP(let digest), .rsaEncryptionOAEPAESGCM(let digest): digest == .sha1 || digest == .sha256
        default: false
        }
    }
}
