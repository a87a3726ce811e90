import SwiftASN1
import X509

/// What Apple derives from a certificate's DER for `SecCertificateCopy…` and for the keychain's certificate
/// attributes: the serial number, the normalized issuer and subject, the subject and issuer summaries, the common
/// names and the e-mail addresses. Pure; computed once when the certificate is made.
///
/// Each rule follows Apple's `OSX/sec/Security/SecCertificate.c`; the doc comment of each property says which.
public struct CertificateAttributes: Sendable, Hashable {
    /// `SecCertificateCopySerialNumberData`, the keychain's `slnr`: the serial number INTEGER's content bytes.
    public let serialNumber: [UInt8]
    /// The keychain's `issr`: the issuer's normalized content (``X501Name/normalizedContent(of:)``), nil when
    /// Apple's normalization fails.
    public let normalizedIssuer: [UInt8]?
    /// The keychain's `subj`: the subject's normalized content, nil when Apple's normalization fails.
    public let normalizedSubject: [UInt8]?
    /// `SecCertificateCopySubjectSummary` (see ``summary(of:withNameFallback:)``).
    public let subjectSummary: String?
    /// Apple's `SecCertificateCopyIssuerSummary`: the same rule on the issuer, without the e-mail/DNS fallback.
    public let issuerSummary: String?
    /// Apple's `SecCertificateCopyCommonNames`: the text of every subject common name in reading order; nil when
    /// there is none, or when the subject cannot be read or one of them has no text.
    public let commonNames: [String]?
    /// Apple's `SecCertificateCopyRFC822Names`: the subject alternative name's `rfc822Name`s in their order, then
    /// the subject's `emailAddress` attributes in reading order; nil when there is none or one cannot be read.
    public let rfc822Names: [String]?
    /// Apple's `SecCertificateCopyDNSNames`: the subject alternative name's `dNSName`s that look like DNS names,
    /// else the subject's common names that do; nil when there is none.
    public let dnsNames: [String]?

    /// Why the certificate is refused: Apple refuses a certificate whose critical subject alternative name extension
    /// cannot be parsed.
    public struct Refusal: Error {}

    public init(_ contents: CertificateContents) throws(Refusal) {
        self.init(contents, alternativeNames: try Self.alternativeNames(of: contents))
    }

    /// The subject alternative names Apple reads: those of the last subjectAltName extension that parses (one
    /// that does not parse clears them); ``Refusal`` when one that does not parse is critical, as Apple refuses
    /// such a certificate. What a certificate must pass to be made at all; the rest can be derived later.
    public static func alternativeNames(of contents: CertificateContents) throws(Refusal) -> [GeneralName]? {
        var alternativeNames: [GeneralName]?
        for found in contents.extensions where found.identifier == .Certificates.subjectAlternativeName {
            let wrapped = Certificate.Extension(oid: found.identifier, critical: found.critical, value: found.value[...])
            if let names = try? SubjectAlternativeNames(wrapped), !names.isEmpty {
                alternativeNames = Array(names)
            } else {
                alternativeNames = nil
                if found.critical { throw Refusal() }
            }
        }
        return alternativeNames
    }

    /// The attributes of `contents`, whose subject alternative names ``alternativeNames(of:)`` read.
    public init(_ contents: CertificateContents, alternativeNames: [GeneralName]?) {
        let subject = X501Name(der: contents.subject)
        let issuer = X501Name(der: contents.issuer)
        serialNumber = contents.serialNumber
        normalizedIssuer = X501Name.normalizedContent(of: contents.issuer)
        normalizedSubject = X501Name.normalizedContent(of: contents.subject)
        commonNames = Self.texts(of: .Certificates.commonName, in: subject)
        rfc822Names = Self.rfc822Names(alternativeNames, subject)
        dnsNames = Self.dnsNames(alternativeNames, subject)
        issuerSummary = issuer.flatMap { Self.summary(of: $0, withNameFallback: nil) }
        let fallback = rfc822Names?.first ?? dnsNames?.first
        subjectSummary = subject.flatMap { Self.summary(of: $0, withNameFallback: fallback) }
    }

    /// The texts of every attribute of `type` in reading order; nil when there is none or one has no text.
    private static func texts(of type: ASN1ObjectIdentifier, in name: X501Name?) -> [String]? {
        guard let name else { return nil }
        var result: [String] = []
        for attribute in name.values(of: type) {
            guard let text = AttributeValueText.text(tag: attribute.tag, content: attribute.content) else { return nil }
            result.append(text)
        }
        return result.isEmpty ? nil : result
    }

    private static func rfc822Names(_ alternativeNames: [GeneralName]?, _ subject: X501Name?) -> [String]? {
        var result: [String] = []
        for case .rfc822Name(let address) in alternativeNames ?? [] { result.append(address) }
        guard let subject else { return nil }
        for attribute in subject.values(of: .Certificates.emailAddress) {
            guard let text = AttributeValueText.text(tag: attribute.tag, content: attribute.content) else { return nil }
            result.append(text)
        }
        return result.isEmpty ? nil : result
    }

    private static func dnsNames(_ alternativeNames: [GeneralName]?, _ subject: X501Name?) -> [String]? {
        var fromAlternativeNames: [String] = []
        for case .dnsName(let host) in alternativeNames ?? [] where DNSNameSyntax.isDNSName(host) { fromAlternativeNames.append(host) }
        if !fromAlternativeNames.isEmpty { return fromAlternativeNames }
        guard let commonNames = texts(of: .Certificates.commonName, in: subject) else { return nil }
        let hosts = commonNames.filter(DNSNameSyntax.isDNSName)
        return hosts.isEmpty ? nil : hosts
    }

    /// Apple's summary of a name (`obtainSummaryFromX501Name`, `SecCertificateCopySubjectSummary`):
    /// 1. The most desired kind of attribute present wins: common name, then organizational unit, then
    ///    organization, then any other attribute with text. All values of the winning kind are listed, the last one
    ///    first, separated by `", "` (`CN=a, CN=b` gives `"b, a"`).
    /// 2. `description` attributes count as "any other", and are also collected (last first); when the winner is
    ///    the common name, they follow it in parentheses: `"name (description)"`.
    /// 3. When no common name won, the first e-mail address (`fallback`: the subject alternative name's
    ///    `rfc822Name`s, then the subject's `emailAddress`es), else the first DNS name, replaces the summary.
    static func summary(of name: X501Name, withNameFallback fallback: String?) -> String? {
        enum Kind: Int, Comparable {
            case none, printable, organization, organizationalUnit, commonName
            static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
        }
        var kind = Kind.none
        var summary: String?
        var description: String?
        for attribute in name.attributes {
            var found = Kind.none
            var text: String?
            switch attribute.type {
            case .Certificates.commonName: found = .commonName
            case .Certificates.organizationalUnitName: found = .organizationalUnit
            case .Certificates.organizationName: found = .organization
            case .Certificates.description:
                text = AttributeValueText.text(tag: attribute.tag, content: attribute.content)
                if let text {
                    description = description.map { "\(text), \($0)" } ?? text
                    found = .printable
                }
            default: found = .printable
            }
            guard kind <= found else { continue }
            guard let value = text ?? AttributeValueText.text(tag: attribute.tag, content: attribute.content) else { continue }
            if kind == found, let previous = summary {
                summary = "\(value), \(previous)"
            } else {
                kind = found
                summary = value
            }
        }
        if let description, kind == .commonName, let named = summary {
            summary = "\(named) (\(description))"
        }
        if kind != .commonName, let fallback {
            summary = fallback
        }
        return summary
    }
}
