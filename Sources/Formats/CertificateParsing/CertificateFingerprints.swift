import Crypto

/// The SHA-1 and SHA-256 digests of a certificate's DER: the fingerprints `openssl x509 -fingerprint` prints and
/// the hashes `security find-certificate -Z` and `find-identity` show (Apple's `SecCertificateGetSHA1Digest` and
/// `SecCertificateCopySHA256Digest`). Pure.
public struct CertificateFingerprints: Sendable, Hashable {
    /// SHA-1 of the DER (20 bytes).
    public let sha1: [UInt8]
    /// SHA-256 of the DER (32 bytes).
    public let sha256: [UInt8]

    /// The fingerprints of the certificate whose DER is `der` (``CertificateContents/der``).
    public init(der: [UInt8]) {
        sha1 = Array(Insecure.SHA1.hash(data: der))
        sha256 = Array(SHA256.hash(data: der))
    }
}
