import CertificateParsing
import Crypto
import Foundation
import Security

/// One pin: the SHA-256 digest of a certificate's `SubjectPublicKeyInfo` DER, as HPKP (RFC 7469) and OWASP's mobile
/// guide define it.
///
/// A pin names a key, not a certificate: a certificate renewed with the same key keeps its pin. The base64 form is
/// what `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`
/// prints for a PEM certificate, and what HPKP's `pin-sha256="…"` carried. Pins are public values and may be logged.
public struct SPKIPin: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes of the digest.
    public let sha256: [UInt8]

    /// A pin from its 32-byte digest; ``PinSetError/Code/malformedPin`` for any other length.
    public init(sha256 digest: some Sequence<UInt8>) throws(PinSetError) {
        let bytes = Array(digest)
        guard bytes.count == SHA256.byteCount else {
            throw PinSetError(.malformedPin, "a SHA-256 pin has 32 bytes, not \(bytes.count)")
        }
        sha256 = bytes
    }

    /// A pin from its base64 form (`openssl … | base64`, HPKP's `pin-sha256`); ``PinSetError/Code/malformedPin``
    /// when the text is not base64 of 32 bytes.
    public init(base64: String) throws(PinSetError) {
        guard let bytes = Data(base64Encoded: base64) else {
            throw PinSetError(.malformedPin, "“\(base64)” is not base64")
        }
        try self.init(sha256: bytes)
    }

    /// The pin of a `SubjectPublicKeyInfo` given as DER (tag and length included).
    public init(subjectPublicKeyInfo: some Sequence<UInt8>) {
        sha256 = Array(SHA256.hash(data: Array(subjectPublicKeyInfo)))
    }

    /// The pin of a certificate's public key, from the certificate's DER; ``PinSetError/Code/unreadableCertificate``
    /// when the bytes are not a certificate.
    public init(certificateDER: some Sequence<UInt8>) throws(PinSetError) {
        let contents: CertificateContents
        do {
            contents = try CertificateContents(derEncoded: Array(certificateDER))
        } catch {
            throw PinSetError(.unreadableCertificate, "the bytes are not an X.509 certificate: \(error.reason)")
        }
        self.init(subjectPublicKeyInfo: contents.subjectPublicKeyInfo)
    }

    /// The pin of a certificate's public key.
    public init(certificate: SecCertificate) throws(PinSetError) {
        try self.init(certificateDER: SecCertificateCopyData(certificate) as Data)
    }

    /// The digest in base64, as pins are usually written.
    public var base64: String { Data(sha256).base64EncodedString() }

    /// HPKP's notation: `pin-sha256="…"`.
    public var description: String { "pin-sha256=\"\(base64)\"" }
}
