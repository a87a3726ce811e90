// The constants of SecKey.h, with the string values Apple defines for them.

extension KeyAlgorithm {
    /// `kSecKeyAlgorithmRSASignatureRaw`: Raw RSA signature: the input, as long as the modulus, with no padding.
    public static let rsaSignatureRaw = KeyAlgorithm(rawValue: "algid:sign:RSA:raw")
    /// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15Raw`: RSA signature with PKCS#1 v1.5 padding over input the caller encoded (DigestInfo included).
    public static let rsaSignatureDigestPKCS1v15Raw = KeyAlgorithm(rawValue: "algid:sign:RSA:digest-PKCS1v15")
    /// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA1`: RSA signature with PKCS#1 v1.5 padding over a SHA-1 digest the caller computed.
    public static let rsaSignatureDigestPKCS1v15SHA1 = KeyAlgorithm(rawValue: "algid:sign:RSA:digest-PKCS1v15:SHA1")
    /// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA224`: RSA signature with PKCS#1 v1.5 padding over a SHA-224 digest the caller computed.
    public static let rsaSignatureDigestPKCS1v15SHA224 = KeyAlgorithm(rawValue: "algid:sign:RSA:digest-PKCS1v15:SHA224")
    /// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA256`: RSA signature with PKCS#1 v1.5 padding over a SHA-256 digest the caller computed.
    public static let rsaSignatureDigestPKCS1v15SHA256 = KeyAlgorithm(rawValue: "algid:sign:RSA:digest-PKCS1v15:SHA256")
    /// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA384`: RSA signature with PKCS#1 v1.5 padding over a SHA-384 digest the caller computed.
    public static let rsaSignatureDigestPKCS1v15SHA384 = KeyAlgorithm(rawValue: "algid:sign:RSA:digest-PKCS1v15:SHA384")
    /// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA512`: RSA signature with PKCS#1 v1.5 padding over a SHA-512 digest the caller computed.
    public static let rsaSignatureDigestPKCS1v15SHA512 = KeyAlgorithm(rawValue: "algid:sign:RSA:digest-PKCS1v15:SHA512")
    /// `kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA1`: RSA signature with PKCS#1 v1.5 padding over the SHA-1 digest of the message.
    public static let rsaSignatureMessagePKCS1v15SHA1 = KeyAlgorithm(rawValue: "algid:sign:RSA:message-PKCS1v15:SHA1")
    /// `kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA224`: RSA signature with PKCS#1 v1.5 padding over the SHA-224 digest of the message.
    public static let rsaSignatureMessagePKCS1v15SHA224 = KeyAlgorithm(rawValue: "algid:sign:RSA:message-PKCS1v15:SHA224")
    /// `kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA256`: RSA signature with PKCS#1 v1.5 padding over the SHA-256 digest of the message.
    public static let rsaSignatureMessagePKCS1v15SHA256 = KeyAlgorithm(rawValue: "algid:sign:RSA:message-PKCS1v15:SHA256")
    /// `kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA384`: RSA signature with PKCS#1 v1.5 padding over the SHA-384 digest of the message.
    public static let rsaSignatureMessagePKCS1v15SHA384 = KeyAlgorithm(rawValue: "algid:sign:RSA:message-PKCS1v15:SHA384")
    /// `kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA512`: RSA signature with PKCS#1 v1.5 padding over the SHA-512 digest of the message.
    public static let rsaSignatureMessagePKCS1v15SHA512 = KeyAlgorithm(rawValue: "algid:sign:RSA:message-PKCS1v15:SHA512")
    /// `kSecKeyAlgorithmRSASignatureDigestPSSSHA1`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over a SHA-1 digest the caller computed.
    public static let rsaSignatureDigestPSSSHA1 = KeyAlgorithm(rawValue: "algid:sign:RSA:digest-PSS:SHA1:SHA1:20")
    /// `kSecKeyAlgorithmRSASignatureDigestPSSSHA224`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over a SHA-224 digest the caller computed.
    public static let rsaSignatureDigestPSSSHA224 = KeyAlgorithm(rawValue: "algid:sign:RSA:digest-PSS:SHA224:SHA224:24")
    /// `kSecKeyAlgorithmRSASignatureDigestPSSSHA256`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over a SHA-256 digest the caller computed.
    public static let rsaSignatureDigestPSSSHA256 = KeyAlgorithm(rawValue: "algid:sign:RSA:digest-PSS:SHA256:SHA256:32")
    /// `kSecKeyAlgorithmRSASignatureDigestPSSSHA384`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over a SHA-384 digest the caller computed.
    public static let rsaSignatureDigestPSSSHA384 = KeyAlgorithm(rawValue: "algid:sign:RSA:digest-PSS:SHA384:SHA384:48")
    /// `kSecKeyAlgorithmRSASignatureDigestPSSSHA512`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over a SHA-512 digest the caller computed.
    public static let rsaSignatureDigestPSSSHA512 = KeyAlgorithm(rawValue: "algid:sign:RSA:digest-PSS:SHA512:SHA512:64")
    /// `kSecKeyAlgorithmRSASignatureMessagePSSSHA1`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over the SHA-1 digest of the message.
    public static let rsaSignatureMessagePSSSHA1 = KeyAlgorithm(rawValue: "algid:sign:RSA:message-PSS:SHA1:SHA1:20")
    /// `kSecKeyAlgorithmRSASignatureMessagePSSSHA224`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over the SHA-224 digest of the message.
    public static let rsaSignatureMessagePSSSHA224 = KeyAlgorithm(rawValue: "algid:sign:RSA:message-PSS:SHA224:SHA224:24")
    /// `kSecKeyAlgorithmRSASignatureMessagePSSSHA256`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over the SHA-256 digest of the message.
    public static let rsaSignatureMessagePSSSHA256 = KeyAlgorithm(rawValue: "algid:sign:RSA:message-PSS:SHA256:SHA256:32")
    /// `kSecKeyAlgorithmRSASignatureMessagePSSSHA384`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over the SHA-384 digest of the message.
    public static let rsaSignatureMessagePSSSHA384 = KeyAlgorithm(rawValue: "algid:sign:RSA:message-PSS:SHA384:SHA384:48")
    /// `kSecKeyAlgorithmRSASignatureMessagePSSSHA512`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over the SHA-512 digest of the message.
    public static let rsaSignatureMessagePSSSHA512 = KeyAlgorithm(rawValue: "algid:sign:RSA:message-PSS:SHA512:SHA512:64")
    /// `kSecKeyAlgorithmECDSASignatureDigestX962`: ECDSA signature in DER (X9.62) form over a digest of any hash the caller computed.
    public static let ecdsaSignatureDigestX962 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:digest-X962")
    /// `kSecKeyAlgorithmECDSASignatureDigestX962SHA1`: ECDSA signature in DER (X9.62) form over a SHA-1 digest the caller computed.
    public static let ecdsaSignatureDigestX962SHA1 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:digest-X962:SHA1")
    /// `kSecKeyAlgorithmECDSASignatureDigestX962SHA224`: ECDSA signature in DER (X9.62) form over a SHA-224 digest the caller computed.
    public static let ecdsaSignatureDigestX962SHA224 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:digest-X962:SHA224")
    /// `kSecKeyAlgorithmECDSASignatureDigestX962SHA256`: ECDSA signature in DER (X9.62) form over a SHA-256 digest the caller computed.
    public static let ecdsaSignatureDigestX962SHA256 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:digest-X962:SHA256")
    /// `kSecKeyAlgorithmECDSASignatureDigestX962SHA384`: ECDSA signature in DER (X9.62) form over a SHA-384 digest the caller computed.
    public static let ecdsaSignatureDigestX962SHA384 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:digest-X962:SHA384")
    /// `kSecKeyAlgorithmECDSASignatureDigestX962SHA512`: ECDSA signature in DER (X9.62) form over a SHA-512 digest the caller computed.
    public static let ecdsaSignatureDigestX962SHA512 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:digest-X962:SHA512")
    /// `kSecKeyAlgorithmECDSASignatureMessageX962SHA1`: ECDSA signature in DER (X9.62) form over the SHA-1 digest of the message.
    public static let ecdsaSignatureMessageX962SHA1 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:message-X962:SHA1")
    /// `kSecKeyAlgorithmECDSASignatureMessageX962SHA224`: ECDSA signature in DER (X9.62) form over the SHA-224 digest of the message.
    public static let ecdsaSignatureMessageX962SHA224 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:message-X962:SHA224")
    /// `kSecKeyAlgorithmECDSASignatureMessageX962SHA256`: ECDSA signature in DER (X9.62) form over the SHA-256 digest of the message.
    public static let ecdsaSignatureMessageX962SHA256 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:message-X962:SHA256")
    /// `kSecKeyAlgorithmECDSASignatureMessageX962SHA384`: ECDSA signature in DER (X9.62) form over the SHA-384 digest of the message.
    public static let ecdsaSignatureMessageX962SHA384 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:message-X962:SHA384")
    /// `kSecKeyAlgorithmECDSASignatureMessageX962SHA512`: ECDSA signature in DER (X9.62) form over the SHA-512 digest of the message.
    public static let ecdsaSignatureMessageX962SHA512 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:message-X962:SHA512")
    /// `kSecKeyAlgorithmECDSASignatureDigestRFC4754`: ECDSA signature in r‖s (RFC 4754) form over a digest of any hash the caller computed.
    public static let ecdsaSignatureDigestRFC4754 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:digest-RFC4754")
    /// `kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA1`: ECDSA signature in r‖s (RFC 4754) form over a SHA-1 digest the caller computed.
    public static let ecdsaSignatureDigestRFC4754SHA1 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:digest-RFC4754:SHA1")
    /// `kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA224`: ECDSA signature in r‖s (RFC 4754) form over a SHA-224 digest the caller computed.
    public static let ecdsaSignatureDigestRFC4754SHA224 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:digest-RFC4754:SHA224")
    /// `kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA256`: ECDSA signature in r‖s (RFC 4754) form over a SHA-256 digest the caller computed.
    public static let ecdsaSignatureDigestRFC4754SHA256 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:digest-RFC4754:SHA256")
    /// `kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA384`: ECDSA signature in r‖s (RFC 4754) form over a SHA-384 digest the caller computed.
    public static let ecdsaSignatureDigestRFC4754SHA384 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:digest-RFC4754:SHA384")
    /// `kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA512`: ECDSA signature in r‖s (RFC 4754) form over a SHA-512 digest the caller computed.
    public static let ecdsaSignatureDigestRFC4754SHA512 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:digest-RFC4754:SHA512")
    /// `kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA1`: ECDSA signature in r‖s (RFC 4754) form over the SHA-1 digest of the message.
    public static let ecdsaSignatureMessageRFC4754SHA1 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:message-RFC4754:SHA1")
    /// `kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA224`: ECDSA signature in r‖s (RFC 4754) form over the SHA-224 digest of the message.
    public static let ecdsaSignatureMessageRFC4754SHA224 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:message-RFC4754:SHA224")
    /// `kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA256`: ECDSA signature in r‖s (RFC 4754) form over the SHA-256 digest of the message.
    public static let ecdsaSignatureMessageRFC4754SHA256 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:message-RFC4754:SHA256")
    /// `kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA384`: ECDSA signature in r‖s (RFC 4754) form over the SHA-384 digest of the message.
    public static let ecdsaSignatureMessageRFC4754SHA384 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:message-RFC4754:SHA384")
    /// `kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA512`: ECDSA signature in r‖s (RFC 4754) form over the SHA-512 digest of the message.
    public static let ecdsaSignatureMessageRFC4754SHA512 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:message-RFC4754:SHA512")
    /// `kSecKeyAlgorithmECDSASignatureRFC4754`: ECDSA signature in r‖s (RFC 4754) form over a digest (deprecated name of the digest form).
    public static let ecdsaSignatureRFC4754 = KeyAlgorithm(rawValue: "algid:sign:ECDSA:RFC4754")
    /// `kSecKeyAlgorithmRSAEncryptionRaw`: Raw RSA encryption: no padding, input no longer than the modulus.
    public static let rsaEncryptionRaw = KeyAlgorithm(rawValue: "algid:encrypt:RSA:raw")
    /// `kSecKeyAlgorithmRSAEncryptionPKCS1`: RSA encryption with PKCS#1 v1.5 padding (input at most block size - 11 bytes).
    public static let rsaEncryptionPKCS1 = KeyAlgorithm(rawValue: "algid:encrypt:RSA:PKCS1")
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA1`: RSA encryption with OAEP padding (SHA-1 and MGF1 SHA-1).
    public static let rsaEncryptionOAEPSHA1 = KeyAlgorithm(rawValue: "algid:encrypt:RSA:OAEP:SHA1")
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA224`: RSA encryption with OAEP padding (SHA-224 and MGF1 SHA-224).
    public static let rsaEncryptionOAEPSHA224 = KeyAlgorithm(rawValue: "algid:encrypt:RSA:OAEP:SHA224")
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA256`: RSA encryption with OAEP padding (SHA-256 and MGF1 SHA-256).
    public static let rsaEncryptionOAEPSHA256 = KeyAlgorithm(rawValue: "algid:encrypt:RSA:OAEP:SHA256")
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA384`: RSA encryption with OAEP padding (SHA-384 and MGF1 SHA-384).
    public static let rsaEncryptionOAEPSHA384 = KeyAlgorithm(rawValue: "algid:encrypt:RSA:OAEP:SHA384")
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA512`: RSA encryption with OAEP padding (SHA-512 and MGF1 SHA-512).
    public static let rsaEncryptionOAEPSHA512 = KeyAlgorithm(rawValue: "algid:encrypt:RSA:OAEP:SHA512")
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA1AESGCM`: A random AES key wrapped with RSA OAEP (SHA-1), the data sealed under it with AES-GCM.
    public static let rsaEncryptionOAEPSHA1AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:RSA:OAEP:SHA1:AESGCM")
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA224AESGCM`: A random AES key wrapped with RSA OAEP (SHA-224), the data sealed under it with AES-GCM.
    public static let rsaEncryptionOAEPSHA224AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:RSA:OAEP:SHA224:AESGCM")
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA256AESGCM`: A random AES key wrapped with RSA OAEP (SHA-256), the data sealed under it with AES-GCM.
    public static let rsaEncryptionOAEPSHA256AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:RSA:OAEP:SHA256:AESGCM")
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA384AESGCM`: A random AES key wrapped with RSA OAEP (SHA-384), the data sealed under it with AES-GCM.
    public static let rsaEncryptionOAEPSHA384AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:RSA:OAEP:SHA384:AESGCM")
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA512AESGCM`: A random AES key wrapped with RSA OAEP (SHA-512), the data sealed under it with AES-GCM.
    public static let rsaEncryptionOAEPSHA512AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:RSA:OAEP:SHA512:AESGCM")
    /// `kSecKeyAlgorithmECIESEncryptionStandardX963SHA1AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-1, AES-GCM with an all-zero IV.
    public static let eciesEncryptionStandardX963SHA1AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDH:KDFX963:SHA1:AESGCM")
    /// `kSecKeyAlgorithmECIESEncryptionStandardX963SHA224AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-224, AES-GCM with an all-zero IV.
    public static let eciesEncryptionStandardX963SHA224AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM")
    /// `kSecKeyAlgorithmECIESEncryptionStandardX963SHA256AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-256, AES-GCM with an all-zero IV.
    public static let eciesEncryptionStandardX963SHA256AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM")
    /// `kSecKeyAlgorithmECIESEncryptionStandardX963SHA384AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-384, AES-GCM with an all-zero IV.
    public static let eciesEncryptionStandardX963SHA384AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM")
    /// `kSecKeyAlgorithmECIESEncryptionStandardX963SHA512AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-512, AES-GCM with an all-zero IV.
    public static let eciesEncryptionStandardX963SHA512AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM")
    /// `kSecKeyAlgorithmECIESEncryptionCofactorX963SHA1AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-1, AES-GCM with an all-zero IV.
    public static let eciesEncryptionCofactorX963SHA1AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA1:AESGCM")
    /// `kSecKeyAlgorithmECIESEncryptionCofactorX963SHA224AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-224, AES-GCM with an all-zero IV.
    public static let eciesEncryptionCofactorX963SHA224AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM")
    /// `kSecKeyAlgorithmECIESEncryptionCofactorX963SHA256AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-256, AES-GCM with an all-zero IV.
    public static let eciesEncryptionCofactorX963SHA256AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM")
    /// `kSecKeyAlgorithmECIESEncryptionCofactorX963SHA384AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-384, AES-GCM with an all-zero IV.
    public static let eciesEncryptionCofactorX963SHA384AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM")
    /// `kSecKeyAlgorithmECIESEncryptionCofactorX963SHA512AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-512, AES-GCM with an all-zero IV.
    public static let eciesEncryptionCofactorX963SHA512AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM")
    /// `kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA224AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-224, AES-GCM with key and IV from the KDF.
    public static let eciesEncryptionStandardVariableIVX963SHA224AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM-KDFIV")
    /// `kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA256AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-256, AES-GCM with key and IV from the KDF.
    public static let eciesEncryptionStandardVariableIVX963SHA256AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV")
    /// `kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA384AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-384, AES-GCM with key and IV from the KDF.
    public static let eciesEncryptionStandardVariableIVX963SHA384AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM-KDFIV")
    /// `kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA512AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-512, AES-GCM with key and IV from the KDF.
    public static let eciesEncryptionStandardVariableIVX963SHA512AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM-KDFIV")
    /// `kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA224AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-224, AES-GCM with key and IV from the KDF.
    public static let eciesEncryptionCofactorVariableIVX963SHA224AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM-KDFIV")
    /// `kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA256AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-256, AES-GCM with key and IV from the KDF.
    public static let eciesEncryptionCofactorVariableIVX963SHA256AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV")
    /// `kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA384AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-384, AES-GCM with key and IV from the KDF.
    public static let eciesEncryptionCofactorVariableIVX963SHA384AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM-KDFIV")
    /// `kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA512AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-512, AES-GCM with key and IV from the KDF.
    public static let eciesEncryptionCofactorVariableIVX963SHA512AESGCM = KeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM-KDFIV")
    /// `kSecKeyAlgorithmECDHKeyExchangeStandard`: ECDH: the raw shared secret (the x coordinate).
    public static let ecdhKeyExchangeStandard = KeyAlgorithm(rawValue: "algid:keyexchange:ECDH")
    /// `kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA1`: ECDH, its shared secret through the ANSI X9.63 KDF with SHA-1.
    public static let ecdhKeyExchangeStandardX963SHA1 = KeyAlgorithm(rawValue: "algid:keyexchange:ECDH:KDFX963:SHA1")
    /// `kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA224`: ECDH, its shared secret through the ANSI X9.63 KDF with SHA-224.
    public static let ecdhKeyExchangeStandardX963SHA224 = KeyAlgorithm(rawValue: "algid:keyexchange:ECDH:KDFX963:SHA224")
    /// `kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA256`: ECDH, its shared secret through the ANSI X9.63 KDF with SHA-256.
    public static let ecdhKeyExchangeStandardX963SHA256 = KeyAlgorithm(rawValue: "algid:keyexchange:ECDH:KDFX963:SHA256")
    /// `kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA384`: ECDH, its shared secret through the ANSI X9.63 KDF with SHA-384.
    public static let ecdhKeyExchangeStandardX963SHA384 = KeyAlgorithm(rawValue: "algid:keyexchange:ECDH:KDFX963:SHA384")
    /// `kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA512`: ECDH, its shared secret through the ANSI X9.63 KDF with SHA-512.
    public static let ecdhKeyExchangeStandardX963SHA512 = KeyAlgorithm(rawValue: "algid:keyexchange:ECDH:KDFX963:SHA512")
    /// `kSecKeyAlgorithmECDHKeyExchangeCofactor`: Cofactor ECDH: the raw shared secret (the x coordinate).
    public static let ecdhKeyExchangeCofactor = KeyAlgorithm(rawValue: "algid:keyexchange:ECDHC")
    /// `kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA1`: Cofactor ECDH, its shared secret through the ANSI X9.63 KDF with SHA-1.
    public static let ecdhKeyExchangeCofactorX963SHA1 = KeyAlgorithm(rawValue: "algid:keyexchange:ECDHC:KDFX963:SHA1")
    /// `kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA224`: Cofactor ECDH, its shared secret through the ANSI X9.63 KDF with SHA-224.
    public static let ecdhKeyExchangeCofactorX963SHA224 = KeyAlgorithm(rawValue: "algid:keyexchange:ECDHC:KDFX963:SHA224")
    /// `kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA256`: Cofactor ECDH, its shared secret through the ANSI X9.63 KDF with SHA-256.
    public static let ecdhKeyExchangeCofactorX963SHA256 = KeyAlgorithm(rawValue: "algid:keyexchange:ECDHC:KDFX963:SHA256")
    /// `kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA384`: Cofactor ECDH, its shared secret through the ANSI X9.63 KDF with SHA-384.
    public static let ecdhKeyExchangeCofactorX963SHA384 = KeyAlgorithm(rawValue: "algid:keyexchange:ECDHC:KDFX963:SHA384")
    /// `kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA512`: Cofactor ECDH, its shared secret through the ANSI X9.63 KDF with SHA-512.
    public static let ecdhKeyExchangeCofactorX963SHA512 = KeyAlgorithm(rawValue: "algid:keyexchange:ECDHC:KDFX963:SHA512")
}
