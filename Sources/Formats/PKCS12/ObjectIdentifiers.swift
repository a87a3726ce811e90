import SwiftASN1

/// The object identifiers of RFC 7292 (PKCS#12), RFC 8018 (PKCS#5), RFC 9579 (PBMAC1) and the algorithms they name.
enum OID {
    // Content types (PKCS#7).
    static let data: ASN1ObjectIdentifier = "1.2.840.113549.1.7.1"
    static let signedData: ASN1ObjectIdentifier = "1.2.840.113549.1.7.2"
    static let envelopedData: ASN1ObjectIdentifier = "1.2.840.113549.1.7.3"
    static let encryptedData: ASN1ObjectIdentifier = "1.2.840.113549.1.7.6"

    // Bag types.
    static let keyBag: ASN1ObjectIdentifier = "1.2.840.113549.1.12.10.1.1"
    static let shroudedKeyBag: ASN1ObjectIdentifier = "1.2.840.113549.1.12.10.1.2"
    static let certBag: ASN1ObjectIdentifier = "1.2.840.113549.1.12.10.1.3"
    static let crlBag: ASN1ObjectIdentifier = "1.2.840.113549.1.12.10.1.4"
    static let secretBag: ASN1ObjectIdentifier = "1.2.840.113549.1.12.10.1.5"
    static let safeContentsBag: ASN1ObjectIdentifier = "1.2.840.113549.1.12.10.1.6"

    // Certificate types and bag attributes.
    static let x509Certificate: ASN1ObjectIdentifier = "1.2.840.113549.1.9.22.1"
    static let sdsiCertificate: ASN1ObjectIdentifier = "1.2.840.113549.1.9.22.2"
    static let friendlyName: ASN1ObjectIdentifier = "1.2.840.113549.1.9.20"
    static let localKeyID: ASN1ObjectIdentifier = "1.2.840.113549.1.9.21"

    // PKCS#12 password-based encryption (appendix C).
    static let pbeWithSHAAnd128BitRC4: ASN1ObjectIdentifier = "1.2.840.113549.1.12.1.1"
    static let pbeWithSHAAnd40BitRC4: ASN1ObjectIdentifier = "1.2.840.113549.1.12.1.2"
    static let pbeWithSHAAnd3KeyTripleDESCBC: ASN1ObjectIdentifier = "1.2.840.113549.1.12.1.3"
    static let pbeWithSHAAnd2KeyTripleDESCBC: ASN1ObjectIdentifier = "1.2.840.113549.1.12.1.4"
    static let pbeWithSHAAnd128BitRC2CBC: ASN1ObjectIdentifier = "1.2.840.113549.1.12.1.5"
    static let pbeWithSHAAnd40BitRC2CBC: ASN1ObjectIdentifier = "1.2.840.113549.1.12.1.6"

    // PKCS#5.
    static let pbkdf2: ASN1ObjectIdentifier = "1.2.840.113549.1.5.12"
    static let pbes2: ASN1ObjectIdentifier = "1.2.840.113549.1.5.13"
    static let pbmac1: ASN1ObjectIdentifier = "1.2.840.113549.1.5.14"
    static let hmacWithSHA1: ASN1ObjectIdentifier = "1.2.840.113549.2.7"
    static let hmacWithSHA256: ASN1ObjectIdentifier = "1.2.840.113549.2.9"
    static let hmacWithSHA384: ASN1ObjectIdentifier = "1.2.840.113549.2.10"
    static let hmacWithSHA512: ASN1ObjectIdentifier = "1.2.840.113549.2.11"
    static let aes128CBC: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.1.2"
    static let aes192CBC: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.1.22"
    static let aes256CBC: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.1.42"
    static let desEDE3CBC: ASN1ObjectIdentifier = "1.2.840.113549.3.7"

    // Digests (the MAC's DigestInfo).
    static let sha1: ASN1ObjectIdentifier = "1.3.14.3.2.26"
    static let sha256: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.1"
    static let sha384: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.2"
    static let sha512: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.3"

    // Private key algorithms (PKCS#8).
    static let rsaEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.1"
    static let ecPublicKey: ASN1ObjectIdentifier = "1.2.840.10045.2.1"
}
