import CertificateParsing
import Foundation
import Synchronization
import X509

/// `SecCertificate`: an X.509 certificate, made from its DER with ``SecCertificateCreateWithData(_:_:)``.
///
/// The certificate is read once, when it is made; the `SecCertificateCopy…` functions then answer from what was
/// read, as Apple's do. Certificates compare equal and hash by their DER bytes, as Apple's do. A certificate holds
/// no secret.
public final class SecCertificate: Sendable, Hashable, CustomStringConvertible {
    /// What is derived from the fields when first needed, and kept.
    private struct Derived {
        var attributes: CertificateAttributes?
        /// swift-certificates' reading of the DER, for trust evaluation: nil until asked; `.some(nil)` when it
        /// does not read the certificate.
        var parsed: Certificate??
    }

    /// The certificate's fields, read from its DER.
    let contents: CertificateContents
    /// The subject alternative names Apple reads, checked when the certificate is made.
    private let alternativeNames: [GeneralName]?
    private let derived: Mutex<Derived>

    /// A certificate whose attributes are already derived.
    init(contents: CertificateContents, attributes: CertificateAttributes) {
        self.contents = contents
        alternativeNames = nil
        derived = Mutex(Derived(attributes: attributes))
    }

    /// A certificate of `contents`, refused as Apple refuses one (a critical subject alternative name that does not
    /// parse); its attributes are derived when first needed.
    init(contents: CertificateContents) throws(CertificateAttributes.Refusal) {
        self.contents = contents
        alternativeNames = try CertificateAttributes.alternativeNames(of: contents)
        derived = Mutex(Derived())
    }

    /// What Apple derives from the fields (summaries, normalized names, e-mail and DNS names).
    var attributes: CertificateAttributes {
        derived.withLock { derived in
            if let attributes = derived.attributes { return attributes }
            let attributes = CertificateAttributes(contents, alternativeNames: alternativeNames)
            derived.attributes = attributes
            return attributes
        }
    }

    /// swift-certificates' reading of the certificate, read once; nil when it cannot read it (a key type it does not
    /// know, for instance).
    var parsed: Certificate? {
        derived.withLock { derived in
            if let parsed = derived.parsed { return parsed }
            let parsed = try? Certificate(derEncoded: contents.der)
            derived.parsed = .some(parsed)
            return parsed
        }
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
