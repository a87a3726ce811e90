extension DerivedKeyAttributes {
    /// The attributes of a private key whose private part never leaves its token (a Secure Enclave key), from
    /// its public key's: sensitive, never extractable, and usable for signing, decrypting and agreeing keys,
    /// with the label and sizes of its public key.
    public static func tokenPrivateKey(publicKey publicAttributes: DerivedKeyAttributes) -> DerivedKeyAttributes {
        var attributes = publicAttributes
        attributes.keyClass = .privateKey
        attributes.isSensitive = true
        attributes.wasAlwaysSensitive = true
        attributes.isExtractable = false
        attributes.wasNeverExtractable = true
        attributes.canEncrypt = false
        attributes.canVerify = false
        attributes.canWrap = false
        attributes.canDecrypt = true
        attributes.canSign = true
        attributes.canDerive = true
        attributes.canUnwrap = true
        return attributes
    }
}
