import Foundation

extension AsymmetricKey {
    /// `SecKeyCreateSignature`: the signature of `input` (a message or a digest, as `algorithm` says) with
    /// this private key.
    ///
    /// ECDSA signatures are DER (X9.62) or r‖s padded to the field size (RFC 4754); RSA signatures are as
    /// long as the modulus; Ed25519 signatures are 64 bytes (RFC 8032). A digest whose length is not the named hash's is `errSecParam`, as Apple reports
    /// it for ECDSA (Apple's RSA PKCS#1 v1.5 would sign a malformed DigestInfo; Coffer refuses it the same way).
    /// A raw RSA signature signs a block below the modulus; `…DigestPKCS1v15Raw` pads whatever it is given. An algorithm the key does not support (``isSupported(_:for:)``), a public key
    /// included, is `errSecParam`.
    public func signature(for input: Data, algorithm: KeyAlgorithm) throws(KeyCryptoError) -> Data {
        switch (material, try supportedSpec(algorithm, for: .sign)) {
        case (.ecPrivate(let key), .ecdsaSignature(let format, let data)):
            guard let digest = data.ecdsaDigest(of: input) else {
                throw .param("bad digest size for signing with algorithm \(algorithm.rawValue)")
            }
            let signature: (der: Data, raw: Data)
            do {
                signature = try key.signature(for: digest)
            } catch let error as KeyCryptoError {
                throw error
            } catch {
                throw .param("\(algorithm.rawValue): X962 signing failed")
            }
            return format == .x962 ? signature.der : signature.raw
        case (.rsaPrivate(let key), .rsaSignature(let padding, let data)):
            guard let digest = data.rsaDigest(of: input) else {
                throw .param("RSAsign wrong input data length for \(algorithm.rawValue)")
            }
            return try key.signature(for: digest.digest, padding: padding.libCrypto(digest.algorithm))
        case (.rsaPrivate(let key), .rsaSignatureRaw):
            return try key.signature(for: input, padding: .none)
        case (.rsaPrivate(let key), .rsaSignatureDigestPKCS1v15Raw):
            return try key.signature(for: input, padding: .pkcs1(digest: nil))
        case (.edPrivate(let key), .eddsaSignature):
            do {
                return try key.signature(for: input)
            } catch {
                throw .param("\(algorithm.rawValue): Ed25519 signing failed")
            }
        default:
            throw .unsupported(algorithm, by: self)
        }
    }

    /// `SecKeyVerifySignature`: returns when `signature` signs `input` (a message or a digest, as
    /// `algorithm` says) under this public key, and throws `errSecVerifyFailed` when it does not.
    ///
    /// Apple's other statuses are kept: an ECDSA digest of the wrong length is `errSecParam`; an RSA
    /// signature longer than the modulus or not below it is `errSecParam`, a shorter one is read with leading
    /// zeros; an RFC 4754 signature that is not twice the field size fails verification.
    public func verifySignature(_ signature: Data, for input: Data, algorithm: KeyAlgorithm) throws(KeyCryptoError) {
        switch (material, try supportedSpec(algorithm, for: .verify)) {
        case (.ecPublic(let key), .ecdsaSignature(let format, let data)):
            guard let digest = data.ecdsaDigest(of: input) else {
                throw .param("bad digest size for signing with algorithm \(algorithm.rawValue)")
            }
            switch format {
            case .x962:
                guard key.isValidSignature(der: signature, for: digest) else {
                    throw .verifyFailed("EC signature verification failed, no match")
                }
            case .rfc4754:
                guard signature.count == 2 * blockSize else { throw .verifyFailed("Wrong ECDSA RFC4754 signature") }
                guard key.isValidSignature(raw: signature, for: digest) else {
                    throw .verifyFailed("EC signature verification failed, no match")
                }
            }
        case (.rsaPublic(let key), .rsaSignature(let padding, let data)):
            guard let digest = data.rsaDigest(of: input) else {
                _ = try key.block(signature)  // a malformed signature is errSecParam first, as Apple reads it first
                throw .verifyFailed("RSA signature verification failed, no match")
            }
            guard try key.isValidSignature(signature, for: digest.digest, padding: padding.libCrypto(digest.algorithm)) else {
                throw .verifyFailed("RSA signature verification failed, no match")
            }
        case (.rsaPublic(let key), .rsaSignatureRaw):
            guard try key.isValidSignature(signature, for: input, padding: .none) else {
                throw .verifyFailed("RSA signature verification failed, no match")
            }
        case (.rsaPublic(let key), .rsaSignatureDigestPKCS1v15Raw):
            guard try key.isValidSignature(signature, for: input, padding: .pkcs1(digest: nil)) else {
                throw .verifyFailed("RSA signature verification failed, no match")
            }
        case (.edPublic(let key), .eddsaSignature):
            guard key.isValidSignature(signature, for: input) else {
                throw .verifyFailed("Ed25519 signature verification failed, no match")
            }
        default:
            throw .unsupported(algorithm, by: self)
        }
    }
}
