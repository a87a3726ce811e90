extension AsymmetricKey {
    /// The attributes Apple derives from this key (§7.1 of the keychain reference).
    public var derivedAttributes: DerivedKeyAttributes {
        let isPrivateKey = keyClass == .privateKey
        return DerivedKeyAttributes(
            keyClass: keyClass, keyType: type, sizeInBits: sizeInBits, effectiveKeySize: sizeInBits,
            applicationLabel: applicationLabel,
            isPermanent: true, isPrivate: true, isModifiable: true,
            isSensitive: false, wasAlwaysSensitive: false, isExtractable: true, wasNeverExtractable: false,
            canEncrypt: !isPrivateKey,
            canDecrypt: isPrivateKey || type == .rsa,
            // Ed25519 keys take Apple's generic dictionaries (SecKeyCurve25519.m), whose flags are the EC keys'.
            canDerive: isPrivateKey && type != .rsa,
            canSign: isPrivateKey, canVerify: !isPrivateKey,
            canSignRecover: false, canVerifyRecover: false,
            canWrap: !isPrivateKey, canUnwrap: isPrivateKey)
    }
}
