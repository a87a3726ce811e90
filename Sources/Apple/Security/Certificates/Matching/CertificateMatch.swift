import CertificateParsing
import Foundation

/// The certificate matches of a `SecItemCopyMatching` query on certificates or identities, as Apple's daemon
/// applies them to each item found (`match_item`): `kSecMatchIssuers`, `kSecMatchPolicy`, `kSecMatchValidOnDate`
/// and `kSecMatchTrustedOnly`.
struct CertificateMatch {
    /// `kSecMatchIssuers`, as normalized name contents; nil when not asked.
    var issuers: [Data]?
    /// `kSecMatchPolicy`.
    var policy: SecPolicy?
    /// `kSecMatchValidOnDate` (its `kCFNull` form: now).
    var validOnDate: Date?
    /// `kSecMatchTrustedOnly`.
    var trustedOnly = false

    /// How deep `kSecMatchIssuers` follows issuers through the keychain's certificates, as Apple's.
    static let issuerDepth = 10

    /// Whether an item whose certificate is `certificate` passes every match; `issuerParents` gives the issuers
    /// of the keychain's certificates whose subject is a name (to follow a chain up to one of the issuers).
    func admits(_ certificate: SecCertificate, issuerParents: (Data) -> [Data]) -> Bool {
        let fields = CertificateItemFields(certificate.contents, certificate.attributes)
        if let issuers {
            guard let issuer = fields.issuer.map({ Data($0) }),
                Self.reaches(issuer, issuers, depth: Self.issuerDepth, parents: issuerParents)
            else { return false }
        }
        if let policy, !Self.passes(certificate, policy: policy, at: validOnDate) { return false }
        if let validOnDate, !Self.isValid(certificate, at: validOnDate) { return false }
        if trustedOnly, !Self.isTrusted(certificate) { return false }
        return true
    }

    /// Apple's `items_matching_issuer_parent`: the issuer is one of `issuers`, or a keychain certificate of that
    /// subject (not self-issued) was issued, within `depth` steps, by one of them.
    private static func reaches(_ issuer: Data, _ issuers: [Data], depth: Int, parents: (Data) -> [Data]) -> Bool {
        if issuers.contains(issuer) { return true }
        guard depth > 0 else { return false }
        for parentIssuer in parents(issuer) where parentIssuer != issuer {
            if reaches(parentIssuer, issuers, depth: depth - 1, parents: parents) { return true }
        }
        return false
    }

    /// Apple's `_FilterWithPolicy`: the basic X.509 policy evaluates the whole chain (to the system anchors); any
    /// other policy the certificate alone (`SecTrustEvaluateLeafOnly`: its purpose, host name and dates).
    private static func passes(_ certificate: SecCertificate, policy: SecPolicy, at date: Date?) -> Bool {
        switch policy.kind {
        case .basicX509: isTrusted(certificate, policy: policy, at: date)
        case .ssl: LeafOnlyEvaluation.passes(certificate, policy: policy, at: date ?? Date())
        }
    }

    /// Apple's `_FilterWithDate`: `date` lies within the certificate's validity (one of zero length never does).
    private static func isValid(_ certificate: SecCertificate, at date: Date) -> Bool {
        let contents = certificate.contents
        guard contents.notValidBefore != contents.notValidAfter else { return false }
        return date >= contents.notValidBefore && date <= contents.notValidAfter
    }

    /// Apple's `_FilterWithTrust`: the certificate chains to a trusted anchor under `policy` (basic X.509 by default).
    private static func isTrusted(_ certificate: SecCertificate, policy: SecPolicy = SecPolicyCreateBasicX509(), at date: Date? = nil) -> Bool {
        let trust = SecTrust(certificates: [certificate], policies: [policy])
        if let date { trust.change { $0.verifyDate = date } }
        let result = trust.outcome().result
        return result == .unspecified || result == .proceed
    }
}
