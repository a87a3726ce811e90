import CertificateParsing
import Foundation

/// `SecCertificate`: an X.509 certificate, made from its DER with ``SecCertificateCreateWithData(_:_:)``.
///
/// The certificate is read once, when it is made; the `SecCertificateCopy…` functions then answer from what was
/// read, as Apple's do. Certificates compare equal and hash by their DER bytes, as Apple's do. A certificate holds
/// no secret.
public final class SecCertificate: Sendable, Hashable, CustomStringConvertible {
    /// The certificate's fields, read from its DER.
    let contents: CertificateContents
    /// What Apple derives from them.
    let attributes: CertificateAttributes

    init(contents: CertificateContents, attributes: CertificateAttributes) {
        self.contents = contents
        self.attributes = attributes
    }

    public static func == (lhs: SecCertificate, rhs: SecCertificate) -> Bool {
        lhs === rhs || lhs.contents.der == rhs.contents.der
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(contents.der)
    }

    /// Apple's description: the object's address, the subject summary and the issuer summary, such as
    /// `<cert(0x5581e0c0) s: leaf.example.com i: Example Intermediate>` (`(null)` for a summary there is none of).
    public var description: String {
        let address = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
        let subject = attributes.subjectSummary ?? "(null)"
        let issuer = attributes.issuerSummary ?? "(null)"
        return "<cert(0x\(String(address, radix: 16))) s: \(subject) i: \(issuer)>"
    }
}

/// The legacy spelling of ``SecCertificate``.
public typealias SecCertificateRef = SecCertificate

/// The type identifier of ``SecCertificate``, for comparison with ``CFGetTypeID(_:)``.
public func SecCertificateGetTypeID() -> CFTypeID { TypeIdentifier.certificate.rawValue }
