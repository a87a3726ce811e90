import Crypto
import SwiftASN1

/// The keychain attributes Apple derives from a certificate's DER when it is stored by reference
/// (`SecCertificateCopyAttributeDictionary` in `OSX/sec/Security/SecCertificate.c`; reference §7.3), as typed
/// values. Query's `CertificateItem` turns them into the item's attribute dictionary. Pure.
public struct CertificateItemFields: Sendable, Hashable {
    /// `ctyp`: the X.509 version plus one (1, 2 or 3: `CSSM_CERT_X_509v1`…`v3`).
    public let certificateType: Int
    /// `cenc`: always 3, `CSSM_CERT_ENCODING_DER`.
    public let encoding: Int
    /// `subj`: the subject's normalized content, nil when Apple's normalization fails (Apple then leaves it out).
    public let subject: [UInt8]?
    /// `issr`: the issuer's normalized content; nil when Apple's normalization fails, and Apple then makes no
    /// attribute dictionary at all.
    public let issuer: [UInt8]?
    /// `slnr`: the serial number INTEGER's content bytes (a leading 0x00 kept).
    public let serialNumber: [UInt8]
    /// `skid`: the subject key identifier extension's key identifier, nil without the extension.
    public let subjectKeyID: [UInt8]?
    /// `pkhh`: SHA-1 of the subject public key BIT STRING's contents without the unused-bits byte, the value a
    /// matching key has as its `klbl`.
    public let publicKeyHash: [UInt8]
    /// `v_Data`: the certificate's DER.
    public let der: [UInt8]

    /// The OID of the subject key identifier extension.
    static let subjectKeyIdentifier: ASN1ObjectIdentifier = [2, 5, 29, 14]

    /// The fields of the certificate `contents`, with the normalized names of `attributes`.
    public init(_ contents: CertificateContents, _ attributes: CertificateAttributes) {
        certificateType = contents.version + 1
        encoding = 3
        subject = attributes.normalizedSubject
        issuer = attributes.normalizedIssuer
        serialNumber = attributes.serialNumber
        // Apple parses every extension in order: the last subject key identifier that parses wins.
        subjectKeyID = contents.extensions.filter { $0.identifier == Self.subjectKeyIdentifier }.compactMap(Self.keyIdentifier).last
        publicKeyHash = Array(Insecure.SHA1.hash(data: contents.publicKeyBits))
        der = contents.der
    }

    /// `KeyIdentifier ::= OCTET STRING`: the contents of the extension value's OCTET STRING (Apple's
    /// `SecCEPSubjectKeyIdentifier`); nil when its value is no OCTET STRING.
    private static func keyIdentifier(_ found: CertificateContents.Extension) -> [UInt8]? {
        guard let node = try? DER.parse(found.value), node.identifier == .octetString,
            case .primitive(let bytes) = node.content
        else { return nil }
        return Array(bytes)
    }
}
