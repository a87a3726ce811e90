/// What an algorithm string asks for, parsed once: the transformation Apple's adaptors apply
/// (SecKeyAdaptors.m) in a form the operations switch over.
enum AlgorithmSpec: Sendable, Hashable {
    /// Raw RSA signature (no padding): the private operation on a block below the modulus.
    case rsaSignatureRaw
    /// PKCS#1 v1.5 signature over caller-encoded input (a DigestInfo the caller built, or any short data).
    case rsaSignatureDigestPKCS1v15Raw
    /// RSA PKCS#1 v1.5 or PSS signature over a digest (given, or computed from the message).
    case rsaSignature(RSASignaturePadding, SignedData)
    /// ECDSA over a digest (given, or computed from the message).
    case ecdsaSignature(ECDSASignatureFormat, SignedData)
    /// Raw RSA encryption: the public operation on a block below the modulus.
    case rsaEncryptionRaw
    /// RSA encryption with PKCS#1 v1.5 padding.
    case rsaEncryptionPKCS1
    /// RSA encryption with OAEP padding (MGF1 with the same hash, empty label).
    case rsaEncryptionOAEP(DigestAlgorithm)
    /// A random AES key wrapped with RSA OAEP, the data sealed under it with AES-GCM.
    case rsaEncryptionOAEPAESGCM(DigestAlgorithm)
    /// ECIES: ephemeral ECDH, X9.63 KDF with `digest`, AES-GCM. Cofactor and standard ECDH are the same on
    /// the prime curves (cofactor 1), so the spec does not keep the difference.
    case ecies(digest: DigestAlgorithm, variableIV: Bool)
    /// ECDH, its raw shared secret or (with `kdf`) the secret through the X9.63 KDF. Cofactor and standard
    /// are the same on the prime curves.
    case ecdh(kdf: DigestAlgorithm?)
    /// Ed25519 (PureEdDSA, RFC 8032) over the message, which the algorithm hashes with SHA-512 itself.
    case eddsaSignature
}

/// The padding of an RSA signature.
enum RSASignaturePadding: Sendable, Hashable {
    /// EMSA-PKCS1-v1_5 with the digest's DigestInfo.
    case pkcs1v15
    /// EMSA-PSS with MGF1 of the same hash and a salt as long as the digest.
    case pss
}

/// What a signature algorithm's input is.
enum SignedData: Sendable, Hashable {
    /// A digest of any hash, any length (ECDSA's plain digest forms).
    case anyDigest
    /// A digest of this hash, which must have its length.
    case digest(DigestAlgorithm)
    /// The message; the algorithm hashes it first.
    case message(DigestAlgorithm)
}

/// How an ECDSA signature is encoded.
enum ECDSASignatureFormat: Sendable, Hashable {
    /// X9.62: the DER `SEQUENCE { r INTEGER, s INTEGER }`.
    case x962
    /// RFC 4754: r and s, big-endian, each padded to the curve's byte size.
    case rfc4754
}

extension AlgorithmSpec {
    /// The padding of an RSA encryption that is one RSA operation (raw, PKCS#1 v1.5, OAEP); nil otherwise.
    var rsaEncryptionPadding: LibCryptoRSAKey.Padding? {
        switch self {
        case .rsaEncryptionRaw: LibCryptoRSAKey.Padding.none
        case .rsaEncryptionPKCS1: .pkcs1(digest: nil)
        case .rsaEncryptionOAEP(let digest), .rsaEncryptionOAEPAESGCM(let digest): .oaep(digest: digest)
        default: nil
        }
    }
}
