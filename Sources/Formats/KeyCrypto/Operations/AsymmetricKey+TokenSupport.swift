extension AsymmetricKey {
    /// Whether a private key of `type` and `sizeInBits` performs `algorithm` for `operation`, asked without
    /// the key: for keys whose private part another process keeps, and which support what a software key of
    /// the same kind does. Only elliptic-curve and Ed25519 keys are kept that way.
    public static func isSupported(
        _ algorithm: KeyAlgorithm, for operation: KeyOperation, byPrivateKeyOf type: KeyType, sizeInBits: Int
    ) -> Bool {
        guard let spec = AlgorithmSpec(algorithm) else { return false }
        switch (type, operation, spec) {
        case (.ellipticCurve, .sign, .ecdsaSignature), (.ellipticCurve, .decrypt, .ecies), (.ellipticCurve, .keyExchange, .ecdh):
            return [256, 384, 521].contains(sizeInBits)
        case (.ed25519, .sign, .eddsaSignature): return sizeInBits == 256
        default: return false
        }
    }
}
