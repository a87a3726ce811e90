extension AsymmetricKey {
    /// Whether a private key of `type` and `sizeInBits` performs `algorithm` for `operation`, asked without
    /// the key: for keys whose private part another process keeps, and which support what a software key of
    /// the same kind does. Only elliptic-curve keys are kept that way.
    public static func isSupported(
        _ algorithm: KeyAlgorithm, for operation: KeyOperation, byPrivateKeyOf type: KeyType, sizeInBits: Int
    ) -> Bool {
        guard type == .ellipticCurve, [256, 384, 521].contains(sizeInBits), let spec = AlgorithmSpec(algorithm) else { return false }
        switch (operation, spec) {
        case (.sign, .ecdsaSignature), (.decrypt, .ecies), (.keyExchange, .ecdh): return true
        default: return false
        }
    }
}
