import CryptoExtras

extension RSASignaturePadding {
    /// swift-crypto's padding. Its PSS uses MGF1 with the digest's hash and a salt as long as the digest,
    /// as Apple's `…PSSSHA…` algorithms do.
    var swiftCrypto: _RSA.Signing.Padding {
        switch self {
        case .pkcs1v15: .insecurePKCS1v1_5
        case .pss: .PSS
        }
    }
}
