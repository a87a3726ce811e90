extension KeyAlgorithm {
    /// `kSecKeyAlgorithmEdDSASignatureMessageCurve25519SHA512`: Ed25519 (PureEdDSA, RFC 8032) over the message.
    ///
    /// Apple declares it in SecKeyPriv.h (SPI since macOS 14 and iOS 17), not in SecKey.h, so it is not in
    /// ``all``; Ed25519 keys (`kSecAttrKeyTypeEd25519`) sign and verify with it.
    public static let edDSASignatureMessageCurve25519SHA512 = KeyAlgorithm(rawValue: "algid:sign:EdDSA:message-Curve25519:SHA512")
}
