import KeyCrypto

extension SecKeyAlgorithm {
    /// `kSecKeyAlgorithmEdDSASignatureMessageCurve25519SHA512`: Ed25519 (PureEdDSA, RFC 8032) over the message, for
    /// `kSecAttrKeyTypeEd25519` keys. Apple declares it in SecKeyPriv.h (SPI since macOS 14 and iOS 17).
    public static let edDSASignatureMessageCurve25519SHA512 = SecKeyAlgorithm(KeyAlgorithm.edDSASignatureMessageCurve25519SHA512)
}
