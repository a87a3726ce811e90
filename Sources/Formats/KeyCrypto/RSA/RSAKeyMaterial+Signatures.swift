import Foundation

extension RSAPrivateKeyMaterial {
    /// An RSA signature of `input` with `padding`, as long as the modulus: for ``LibCryptoRSAKey/Padding/none``
    /// `input` is the block itself (a number below the modulus, leading zeros optional), for PKCS#1 without a
    /// digest the data to pad, otherwise a digest of the padding's hash. Input that does not fit is
    /// `errSecParam`, as Apple reports it ("RSAsign wrong input data length").
    func signature(for input: Data, padding: LibCryptoRSAKey.Padding) throws(KeyCryptoError) -> Data {
        let block: Data
        if case .none = padding { block = try publicKey.block(input) } else { block = input }
        do {
            return try key.sign(block, padding: padding)
        } catch {
            throw .param("RSAsign wrong input data length")
        }
    }
}

extension RSAPublicKeyMaterial {
    /// Whether `signature` signs `input` under `padding` (see ``RSAPrivateKeyMaterial/signature(for:padding:)``).
    /// A signature longer than the modulus or not below it is `errSecParam`, as ``block(_:)`` reads it.
    ///
    /// A raw signature is checked as Apple's adaptor checks it: its public operation, without leading zero
    /// bytes, must be `input` exactly.
    func isValidSignature(_ signature: Data, for input: Data, padding: LibCryptoRSAKey.Padding) throws(KeyCryptoError) -> Bool {
        let block = try block(signature)
        guard case .none = padding else { return key.isValidSignature(block, for: input, padding: padding) }
        guard let recovered = try? key.encrypt(block, padding: .none) else { return false }
        return recovered.drop(while: { $0 == 0 }).elementsEqual(input)
    }
}

extension RSASignaturePadding {
    /// libcrypto's padding for a signature over a digest of `digest`. PSS uses MGF1 with the digest's hash and
    /// a salt as long as the digest, as Apple's `…PSSSHA…` algorithms do.
    func libCrypto(_ digest: DigestAlgorithm) -> LibCryptoRSAKey.Padding {
        switch self {
        case .pkcs1v15: .pkcs1(digest: digest)
        case .pss: .pss(digest: digest)
        }
    }
}
