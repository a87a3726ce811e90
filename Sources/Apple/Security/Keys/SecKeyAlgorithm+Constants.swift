import Foundation
import KeyCrypto

// Apple's `SecKeyAlgorithm` constants (SecKey.h), by the names Swift gives them.

extension SecKeyAlgorithm {
    /// `kSecKeyAlgorithmRSASignatureRaw`: Raw RSA signature: the input, as long as the modulus, with no padding.
    public static let rsaSignatureRaw = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureRaw)
    /// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15Raw`: RSA signature with PKCS#1 v1.5 padding over input the caller encoded (DigestInfo included).
    public static let rsaSignatureDigestPKCS1v15Raw = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureDigestPKCS1v15Raw)
    /// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA1`: RSA signature with PKCS#1 v1.5 padding over a SHA-1 digest the caller computed.
    public static let rsaSignatureDigestPKCS1v15SHA1 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureDigestPKCS1v15SHA1)
    /// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA224`: RSA signature with PKCS#1 v1.5 padding over a SHA-224 digest the caller computed.
    public static let rsaSignatureDigestPKCS1v15SHA224 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureDigestPKCS1v15SHA224)
    /// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA256`: RSA signature with PKCS#1 v1.5 padding over a SHA-256 digest the caller computed.
    public static let rsaSignatureDigestPKCS1v15SHA256 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureDigestPKCS1v15SHA256)
    /// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA384`: RSA signature with PKCS#1 v1.5 padding over a SHA-384 digest the caller computed.
    public static let rsaSignatureDigestPKCS1v15SHA384 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureDigestPKCS1v15SHA384)
    /// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA512`: RSA signature with PKCS#1 v1.5 padding over a SHA-512 digest the caller computed.
    public static let rsaSignatureDigestPKCS1v15SHA512 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureDigestPKCS1v15SHA512)
    /// `kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA1`: RSA signature with PKCS#1 v1.5 padding over the SHA-1 digest of the message.
    public static let rsaSignatureMessagePKCS1v15SHA1 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureMessagePKCS1v15SHA1)
    /// `kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA224`: RSA signature with PKCS#1 v1.5 padding over the SHA-224 digest of the message.
    public static let rsaSignatureMessagePKCS1v15SHA224 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureMessagePKCS1v15SHA224)
    /// `kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA256`: RSA signature with PKCS#1 v1.5 padding over the SHA-256 digest of the message.
    public static let rsaSignatureMessagePKCS1v15SHA256 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureMessagePKCS1v15SHA256)
    /// `kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA384`: RSA signature with PKCS#1 v1.5 padding over the SHA-384 digest of the message.
    public static let rsaSignatureMessagePKCS1v15SHA384 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureMessagePKCS1v15SHA384)
    /// `kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA512`: RSA signature with PKCS#1 v1.5 padding over the SHA-512 digest of the message.
    public static let rsaSignatureMessagePKCS1v15SHA512 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureMessagePKCS1v15SHA512)
    /// `kSecKeyAlgorithmRSASignatureDigestPSSSHA1`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over a SHA-1 digest the caller computed.
    public static let rsaSignatureDigestPSSSHA1 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureDigestPSSSHA1)
    /// `kSecKeyAlgorithmRSASignatureDigestPSSSHA224`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over a SHA-224 digest the caller computed.
    public static let rsaSignatureDigestPSSSHA224 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureDigestPSSSHA224)
    /// `kSecKeyAlgorithmRSASignatureDigestPSSSHA256`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over a SHA-256 digest the caller computed.
    public static let rsaSignatureDigestPSSSHA256 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureDigestPSSSHA256)
    /// `kSecKeyAlgorithmRSASignatureDigestPSSSHA384`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over a SHA-384 digest the caller computed.
    public static let rsaSignatureDigestPSSSHA384 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureDigestPSSSHA384)
    /// `kSecKeyAlgorithmRSASignatureDigestPSSSHA512`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over a SHA-512 digest the caller computed.
    public static let rsaSignatureDigestPSSSHA512 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureDigestPSSSHA512)
    /// `kSecKeyAlgorithmRSASignatureMessagePSSSHA1`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over the SHA-1 digest of the message.
    public static let rsaSignatureMessagePSSSHA1 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureMessagePSSSHA1)
    /// `kSecKeyAlgorithmRSASignatureMessagePSSSHA224`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over the SHA-224 digest of the message.
    public static let rsaSignatureMessagePSSSHA224 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureMessagePSSSHA224)
    /// `kSecKeyAlgorithmRSASignatureMessagePSSSHA256`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over the SHA-256 digest of the message.
    public static let rsaSignatureMessagePSSSHA256 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureMessagePSSSHA256)
    /// `kSecKeyAlgorithmRSASignatureMessagePSSSHA384`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over the SHA-384 digest of the message.
    public static let rsaSignatureMessagePSSSHA384 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureMessagePSSSHA384)
    /// `kSecKeyAlgorithmRSASignatureMessagePSSSHA512`: RSA signature with RSASSA-PSS (MGF1 and salt of the digest's length) padding over the SHA-512 digest of the message.
    public static let rsaSignatureMessagePSSSHA512 = SecKeyAlgorithm(KeyAlgorithm.rsaSignatureMessagePSSSHA512)
    /// `kSecKeyAlgorithmECDSASignatureDigestX962`: ECDSA signature in DER (X9.62) form over a digest of any hash the caller computed.
    public static let ecdsaSignatureDigestX962 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureDigestX962)
    /// `kSecKeyAlgorithmECDSASignatureDigestX962SHA1`: ECDSA signature in DER (X9.62) form over a SHA-1 digest the caller computed.
    public static let ecdsaSignatureDigestX962SHA1 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureDigestX962SHA1)
    /// `kSecKeyAlgorithmECDSASignatureDigestX962SHA224`: ECDSA signature in DER (X9.62) form over a SHA-224 digest the caller computed.
    public static let ecdsaSignatureDigestX962SHA224 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureDigestX962SHA224)
    /// `kSecKeyAlgorithmECDSASignatureDigestX962SHA256`: ECDSA signature in DER (X9.62) form over a SHA-256 digest the caller computed.
    public static let ecdsaSignatureDigestX962SHA256 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureDigestX962SHA256)
    /// `kSecKeyAlgorithmECDSASignatureDigestX962SHA384`: ECDSA signature in DER (X9.62) form over a SHA-384 digest the caller computed.
    public static let ecdsaSignatureDigestX962SHA384 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureDigestX962SHA384)
    /// `kSecKeyAlgorithmECDSASignatureDigestX962SHA512`: ECDSA signature in DER (X9.62) form over a SHA-512 digest the caller computed.
    public static let ecdsaSignatureDigestX962SHA512 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureDigestX962SHA512)
    /// `kSecKeyAlgorithmECDSASignatureMessageX962SHA1`: ECDSA signature in DER (X9.62) form over the SHA-1 digest of the message.
    public static let ecdsaSignatureMessageX962SHA1 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureMessageX962SHA1)
    /// `kSecKeyAlgorithmECDSASignatureMessageX962SHA224`: ECDSA signature in DER (X9.62) form over the SHA-224 digest of the message.
    public static let ecdsaSignatureMessageX962SHA224 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureMessageX962SHA224)
    /// `kSecKeyAlgorithmECDSASignatureMessageX962SHA256`: ECDSA signature in DER (X9.62) form over the SHA-256 digest of the message.
    public static let ecdsaSignatureMessageX962SHA256 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureMessageX962SHA256)
    /// `kSecKeyAlgorithmECDSASignatureMessageX962SHA384`: ECDSA signature in DER (X9.62) form over the SHA-384 digest of the message.
    public static let ecdsaSignatureMessageX962SHA384 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureMessageX962SHA384)
    /// `kSecKeyAlgorithmECDSASignatureMessageX962SHA512`: ECDSA signature in DER (X9.62) form over the SHA-512 digest of the message.
    public static let ecdsaSignatureMessageX962SHA512 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureMessageX962SHA512)
    /// `kSecKeyAlgorithmECDSASignatureDigestRFC4754`: ECDSA signature in r‖s (RFC 4754) form over a digest of any hash the caller computed.
    public static let ecdsaSignatureDigestRFC4754 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureDigestRFC4754)
    /// `kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA1`: ECDSA signature in r‖s (RFC 4754) form over a SHA-1 digest the caller computed.
    public static let ecdsaSignatureDigestRFC4754SHA1 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureDigestRFC4754SHA1)
    /// `kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA224`: ECDSA signature in r‖s (RFC 4754) form over a SHA-224 digest the caller computed.
    public static let ecdsaSignatureDigestRFC4754SHA224 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureDigestRFC4754SHA224)
    /// `kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA256`: ECDSA signature in r‖s (RFC 4754) form over a SHA-256 digest the caller computed.
    public static let ecdsaSignatureDigestRFC4754SHA256 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureDigestRFC4754SHA256)
    /// `kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA384`: ECDSA signature in r‖s (RFC 4754) form over a SHA-384 digest the caller computed.
    public static let ecdsaSignatureDigestRFC4754SHA384 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureDigestRFC4754SHA384)
    /// `kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA512`: ECDSA signature in r‖s (RFC 4754) form over a SHA-512 digest the caller computed.
    public static let ecdsaSignatureDigestRFC4754SHA512 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureDigestRFC4754SHA512)
    /// `kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA1`: ECDSA signature in r‖s (RFC 4754) form over the SHA-1 digest of the message.
    public static let ecdsaSignatureMessageRFC4754SHA1 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureMessageRFC4754SHA1)
    /// `kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA224`: ECDSA signature in r‖s (RFC 4754) form over the SHA-224 digest of the message.
    public static let ecdsaSignatureMessageRFC4754SHA224 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureMessageRFC4754SHA224)
    /// `kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA256`: ECDSA signature in r‖s (RFC 4754) form over the SHA-256 digest of the message.
    public static let ecdsaSignatureMessageRFC4754SHA256 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureMessageRFC4754SHA256)
    /// `kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA384`: ECDSA signature in r‖s (RFC 4754) form over the SHA-384 digest of the message.
    public static let ecdsaSignatureMessageRFC4754SHA384 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureMessageRFC4754SHA384)
    /// `kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA512`: ECDSA signature in r‖s (RFC 4754) form over the SHA-512 digest of the message.
    public static let ecdsaSignatureMessageRFC4754SHA512 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureMessageRFC4754SHA512)
    /// `kSecKeyAlgorithmECDSASignatureRFC4754`: ECDSA signature in r‖s (RFC 4754) form over a digest (deprecated name of the digest form).
    public static let ecdsaSignatureRFC4754 = SecKeyAlgorithm(KeyAlgorithm.ecdsaSignatureRFC4754)
    /// `kSecKeyAlgorithmRSAEncryptionRaw`: Raw RSA encryption: no padding, input no longer than the modulus.
    public static let rsaEncryptionRaw = SecKeyAlgorithm(KeyAlgorithm.rsaEncryptionRaw)
    /// `kSecKeyAlgorithmRSAEncryptionPKCS1`: RSA encryption with PKCS#1 v1.5 padding (input at most block size - 11 bytes).
    public static let rsaEncryptionPKCS1 = SecKeyAlgorithm(KeyAlgorithm.rsaEncryptionPKCS1)
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA1`: RSA encryption with OAEP padding (SHA-1 and MGF1 SHA-1).
    public static let rsaEncryptionOAEPSHA1 = SecKeyAlgorithm(KeyAlgorithm.rsaEncryptionOAEPSHA1)
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA224`: RSA encryption with OAEP padding (SHA-224 and MGF1 SHA-224).
    public static let rsaEncryptionOAEPSHA224 = SecKeyAlgorithm(KeyAlgorithm.rsaEncryptionOAEPSHA224)
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA256`: RSA encryption with OAEP padding (SHA-256 and MGF1 SHA-256).
    public static let rsaEncryptionOAEPSHA256 = SecKeyAlgorithm(KeyAlgorithm.rsaEncryptionOAEPSHA256)
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA384`: RSA encryption with OAEP padding (SHA-384 and MGF1 SHA-384).
    public static let rsaEncryptionOAEPSHA384 = SecKeyAlgorithm(KeyAlgorithm.rsaEncryptionOAEPSHA384)
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA512`: RSA encryption with OAEP padding (SHA-512 and MGF1 SHA-512).
    public static let rsaEncryptionOAEPSHA512 = SecKeyAlgorithm(KeyAlgorithm.rsaEncryptionOAEPSHA512)
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA1AESGCM`: A random AES key wrapped with RSA OAEP (SHA-1), the data sealed under it with AES-GCM.
    public static let rsaEncryptionOAEPSHA1AESGCM = SecKeyAlgorithm(KeyAlgorithm.rsaEncryptionOAEPSHA1AESGCM)
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA224AESGCM`: A random AES key wrapped with RSA OAEP (SHA-224), the data sealed under it with AES-GCM.
    public static let rsaEncryptionOAEPSHA224AESGCM = SecKeyAlgorithm(KeyAlgorithm.rsaEncryptionOAEPSHA224AESGCM)
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA256AESGCM`: A random AES key wrapped with RSA OAEP (SHA-256), the data sealed under it with AES-GCM.
    public static let rsaEncryptionOAEPSHA256AESGCM = SecKeyAlgorithm(KeyAlgorithm.rsaEncryptionOAEPSHA256AESGCM)
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA384AESGCM`: A random AES key wrapped with RSA OAEP (SHA-384), the data sealed under it with AES-GCM.
    public static let rsaEncryptionOAEPSHA384AESGCM = SecKeyAlgorithm(KeyAlgorithm.rsaEncryptionOAEPSHA384AESGCM)
    /// `kSecKeyAlgorithmRSAEncryptionOAEPSHA512AESGCM`: A random AES key wrapped with RSA OAEP (SHA-512), the data sealed under it with AES-GCM.
    public static let rsaEncryptionOAEPSHA512AESGCM = SecKeyAlgorithm(KeyAlgorithm.rsaEncryptionOAEPSHA512AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionStandardX963SHA1AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-1, AES-GCM with an all-zero IV.
    public static let eciesEncryptionStandardX963SHA1AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionStandardX963SHA1AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionStandardX963SHA224AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-224, AES-GCM with an all-zero IV.
    public static let eciesEncryptionStandardX963SHA224AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionStandardX963SHA224AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionStandardX963SHA256AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-256, AES-GCM with an all-zero IV.
    public static let eciesEncryptionStandardX963SHA256AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionStandardX963SHA256AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionStandardX963SHA384AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-384, AES-GCM with an all-zero IV.
    public static let eciesEncryptionStandardX963SHA384AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionStandardX963SHA384AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionStandardX963SHA512AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-512, AES-GCM with an all-zero IV.
    public static let eciesEncryptionStandardX963SHA512AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionStandardX963SHA512AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionCofactorX963SHA1AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-1, AES-GCM with an all-zero IV.
    public static let eciesEncryptionCofactorX963SHA1AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionCofactorX963SHA1AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionCofactorX963SHA224AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-224, AES-GCM with an all-zero IV.
    public static let eciesEncryptionCofactorX963SHA224AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionCofactorX963SHA224AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionCofactorX963SHA256AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-256, AES-GCM with an all-zero IV.
    public static let eciesEncryptionCofactorX963SHA256AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionCofactorX963SHA256AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionCofactorX963SHA384AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-384, AES-GCM with an all-zero IV.
    public static let eciesEncryptionCofactorX963SHA384AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionCofactorX963SHA384AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionCofactorX963SHA512AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-512, AES-GCM with an all-zero IV.
    public static let eciesEncryptionCofactorX963SHA512AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionCofactorX963SHA512AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA224AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-224, AES-GCM with key and IV from the KDF.
    public static let eciesEncryptionStandardVariableIVX963SHA224AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionStandardVariableIVX963SHA224AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA256AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-256, AES-GCM with key and IV from the KDF.
    public static let eciesEncryptionStandardVariableIVX963SHA256AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionStandardVariableIVX963SHA256AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA384AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-384, AES-GCM with key and IV from the KDF.
    public static let eciesEncryptionStandardVariableIVX963SHA384AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionStandardVariableIVX963SHA384AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA512AESGCM`: ECIES: ephemeral ECDH, ANSI X9.63 KDF with SHA-512, AES-GCM with key and IV from the KDF.
    public static let eciesEncryptionStandardVariableIVX963SHA512AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionStandardVariableIVX963SHA512AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA224AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-224, AES-GCM with key and IV from the KDF.
    public static let eciesEncryptionCofactorVariableIVX963SHA224AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA224AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA256AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-256, AES-GCM with key and IV from the KDF.
    public static let eciesEncryptionCofactorVariableIVX963SHA256AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA384AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-384, AES-GCM with key and IV from the KDF.
    public static let eciesEncryptionCofactorVariableIVX963SHA384AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA384AESGCM)
    /// `kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA512AESGCM`: ECIES: ephemeral cofactor ECDH, ANSI X9.63 KDF with SHA-512, AES-GCM with key and IV from the KDF.
    public static let eciesEncryptionCofactorVariableIVX963SHA512AESGCM = SecKeyAlgorithm(KeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA512AESGCM)
    /// `kSecKeyAlgorithmECDHKeyExchangeStandard`: ECDH: the raw shared secret (the x coordinate).
    public static let ecdhKeyExchangeStandard = SecKeyAlgorithm(KeyAlgorithm.ecdhKeyExchangeStandard)
    /// `kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA1`: ECDH, its shared secret through the ANSI X9.63 KDF with SHA-1.
    public static let ecdhKeyExchangeStandardX963SHA1 = SecKeyAlgorithm(KeyAlgorithm.ecdhKeyExchangeStandardX963SHA1)
    /// `kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA224`: ECDH, its shared secret through the ANSI X9.63 KDF with SHA-224.
    public static let ecdhKeyExchangeStandardX963SHA224 = SecKeyAlgorithm(KeyAlgorithm.ecdhKeyExchangeStandardX963SHA224)
    /// `kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA256`: ECDH, its shared secret through the ANSI X9.63 KDF with SHA-256.
    public static let ecdhKeyExchangeStandardX963SHA256 = SecKeyAlgorithm(KeyAlgorithm.ecdhKeyExchangeStandardX963SHA256)
    /// `kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA384`: ECDH, its shared secret through the ANSI X9.63 KDF with SHA-384.
    public static let ecdhKeyExchangeStandardX963SHA384 = SecKeyAlgorithm(KeyAlgorithm.ecdhKeyExchangeStandardX963SHA384)
    /// `kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA512`: ECDH, its shared secret through the ANSI X9.63 KDF with SHA-512.
    public static let ecdhKeyExchangeStandardX963SHA512 = SecKeyAlgorithm(KeyAlgorithm.ecdhKeyExchangeStandardX963SHA512)
    /// `kSecKeyAlgorithmECDHKeyExchangeCofactor`: Cofactor ECDH: the raw shared secret (the x coordinate).
    public static let ecdhKeyExchangeCofactor = SecKeyAlgorithm(KeyAlgorithm.ecdhKeyExchangeCofactor)
    /// `kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA1`: Cofactor ECDH, its shared secret through the ANSI X9.63 KDF with SHA-1.
    public static let ecdhKeyExchangeCofactorX963SHA1 = SecKeyAlgorithm(KeyAlgorithm.ecdhKeyExchangeCofactorX963SHA1)
    /// `kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA224`: Cofactor ECDH, its shared secret through the ANSI X9.63 KDF with SHA-224.
    public static let ecdhKeyExchangeCofactorX963SHA224 = SecKeyAlgorithm(KeyAlgorithm.ecdhKeyExchangeCofactorX963SHA224)
    /// `kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA256`: Cofactor ECDH, its shared secret through the ANSI X9.63 KDF with SHA-256.
    public static let ecdhKeyExchangeCofactorX963SHA256 = SecKeyAlgorithm(KeyAlgorithm.ecdhKeyExchangeCofactorX963SHA256)
    /// `kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA384`: Cofactor ECDH, its shared secret through the ANSI X9.63 KDF with SHA-384.
    public static let ecdhKeyExchangeCofactorX963SHA384 = SecKeyAlgorithm(KeyAlgorithm.ecdhKeyExchangeCofactorX963SHA384)
    /// `kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA512`: Cofactor ECDH, its shared secret through the ANSI X9.63 KDF with SHA-512.
    public static let ecdhKeyExchangeCofactorX963SHA512 = SecKeyAlgorithm(KeyAlgorithm.ecdhKeyExchangeCofactorX963SHA512)
}
