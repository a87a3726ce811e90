import KeychainModel

/// A private key from a PKCS#12 file's key bag, decrypted.
public struct PKCS12PrivateKey: Sendable {
    /// What kind of key it is, from the PKCS#8 algorithm.
    public enum KeyType: Sendable, Equatable {
        /// `rsaEncryption`: the PKCS#8 holds a PKCS#1 `RSAPrivateKey`.
        case rsa
        /// `id-ecPublicKey`: the PKCS#8 holds an RFC 5915 `ECPrivateKey`, its curve in the parameters.
        case ellipticCurve
    }

    /// The key's PKCS#8 `PrivateKeyInfo` DER, in zeroizing memory.
    public let pkcs8: SecretBytes
    /// RSA or EC.
    public let type: KeyType
    /// The bag's attributes.
    public let attributes: PKCS12BagAttributes
}
