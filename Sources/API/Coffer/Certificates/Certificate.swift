import CertificateParsing
import Foundation

/// An X.509 certificate, read from its DER as Apple's `SecCertificateCreateWithData` reads it, with the facts
/// people and code ask of it: the subject and issuer summaries, the serial number, the validity period, the
/// fingerprints and the public key hash that pairs it with its private key.
///
/// Make one from a file's bytes (``init(derRepresentation:)`` or ``init(pemRepresentation:)``), store it with
/// ``Keychain/add(certificate:label:accessGroup:accessibility:)`` and find it again with
/// ``Keychain/certificates(matching:)``; a stored certificate also carries its label, access group, protection
/// and persistent reference. Certificates are public: descriptions show what is in them.
///
/// Two certificates are equal when their DER and their stored attributes are.
public struct Certificate: Sendable, Hashable, CustomStringConvertible {
    /// The certificate's fields, as `CertificateParsing` reads them.
    let contents: CertificateContents
    /// What Apple derives from them: the summaries, the normalized names, the serial number.
    let attributes: CertificateAttributes

    /// The SHA-1 of ``derRepresentation`` (`openssl x509 -fingerprint -sha1`; what `security find-identity` lists).
    public let sha1Fingerprint: Data
    /// The SHA-256 of ``derRepresentation`` (`openssl x509 -fingerprint -sha256`), the fingerprint to compare.
    public let sha256Fingerprint: Data
    /// `kSecAttrPublicKeyHash`: the SHA-1 of the subject public key, the same bytes as the
    /// ``PrivateKey/applicationLabel`` of its private key. A certificate and a key stored with equal values form
    /// an ``Identity``.
    public let publicKeyHash: Data

    /// `kSecAttrLabel`: a name for people; stored certificates default to the ``subjectSummary``.
    public internal(set) var label: String?
    /// `kSecAttrAccessGroup`: the access group the certificate is stored in.
    public internal(set) var accessGroup: String?
    /// `kSecAttrAccessible`: when the certificate item can be read.
    public internal(set) var accessibility: Accessibility?
    /// The certificate item's persistent reference, once stored.
    public internal(set) var persistentReference: PersistentReference?

    /// The certificate in `derRepresentation`: one DER X.509 certificate (bytes after it are ignored, as Apple's
    /// are).
    ///
    /// Bytes that are no certificate throw ``KeychainError`` with `errSecDecode` (-26275) and the reason.
    public init(derRepresentation: Data) throws(KeychainError) {
        let contents: CertificateContents
        do {
            contents = try CertificateContents(derEncoded: [UInt8](derRepresentation))
        } catch {
            throw KeychainError(
                status: .decode, operation: .readCertificate,
                reason: KeychainError.sentence("the bytes are no DER X.509 certificate: \(error.reason)"))
        }
        let attributes: CertificateAttributes
        do {
            attributes = try CertificateAttributes(contents)
        } catch {
            throw KeychainError(
                status: .decode, operation: .readCertificate,
                reason: "The certificate's critical subject alternative name extension cannot be read.")
        }
        self.init(contents: contents, attributes: attributes)
    }

    /// The first `CERTIFICATE` block of PEM text (`-----BEGIN CERTIFICATE-----`, as `openssl x509` writes it).
    ///
    /// Text without such a block, or whose block is no certificate, throws ``KeychainError`` with
    /// `errSecDecode` (-26275).
    public init(pemRepresentation: String) throws(KeychainError) {
        guard let der = CertificatePEM.firstCertificate(in: pemRepresentation) else {
            throw KeychainError(
                status: .decode, operation: .readCertificate, reason: "The text has no PEM CERTIFICATE block in base64.")
        }
        try self.init(derRepresentation: der)
    }

    /// The certificate of parsed `contents`.
    init(contents: CertificateContents, attributes: CertificateAttributes) {
        self.contents = contents
        self.attributes = attributes
        let fingerprints = CertificateFingerprints(der: contents.der)
        sha1Fingerprint = Data(fingerprints.sha1)
        sha256Fingerprint = Data(fingerprints.sha256)
        publicKeyHash = Data(CertificateItemFields(contents, attributes).publicKeyHash)
    }

    /// The certificate's DER (`SecCertificateCopyData`).
    public var derRepresentation: Data { Data(contents.der) }

    /// The certificate as PEM: `-----BEGIN CERTIFICATE-----`, base64 in lines of 64, a final newline, as
    /// `openssl x509` writes it.
    public var pemRepresentation: String { CertificatePEM.encode(contents.der) }

    /// `SecCertificateCopySubjectSummary`: the subject's common name (else organizational unit, organization, an
    /// e-mail address or DNS name), such as `"example.test"`; nil when the subject has none of them.
    public var subjectSummary: String? { attributes.subjectSummary }
    /// The issuer's summary by the same rule, such as `"Example Issuing CA"`.
    public var issuerSummary: String? { attributes.issuerSummary }
    /// The subject's common names, in order (`SecCertificateCopyCommonName` gives the last).
    public var commonNames: [String] { attributes.commonNames ?? [] }
    /// The e-mail addresses: the subject alternative name's, then the subject's (`SecCertificateCopyEmailAddresses`).
    public var emailAddresses: [String] { attributes.rfc822Names ?? [] }
    /// The serial number's bytes as encoded, a leading zero byte kept (`SecCertificateCopySerialNumberData`,
    /// `kSecAttrSerialNumber`).
    public var serialNumber: Data { Data(contents.serialNumber) }
    /// The start of the validity period.
    public var notValidBefore: Date { contents.notValidBefore }
    /// The end of the validity period.
    public var notValidAfter: Date { contents.notValidAfter }

    /// Whether `date` lies in the validity period (a trust evaluation checks more: see `SecTrust`).
    public func isValid(at date: Date = Date()) -> Bool {
        notValidBefore <= date && date <= notValidAfter
    }

    /// The subject public key, when it is an RSA or NIST P-256, P-384 or P-521 key (`SecCertificateCopyKey`);
    /// nil for other algorithms.
    public var publicKey: PublicKey? {
        let type: KeyType
        switch contents.publicKeyAlgorithm {
        case .Certificates.ecPublicKey: type = .ellipticCurve
        case .Certificates.rsaEncryption: type = .rsa
        default: return nil
        }
        return try? PublicKey(externalRepresentation: Data(contents.publicKeyBits), type: type)
    }

    /// The subject summary and issuer summary, such as `certificate "example.test" issued by "Example CA"`.
    public var description: String {
        "certificate \"\(subjectSummary ?? "<no summary>")\" issued by \"\(issuerSummary ?? "<no summary>")\""
    }
}
