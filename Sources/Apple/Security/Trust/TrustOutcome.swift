import CertificateParsing
import Foundation

/// One evaluation's result: Apple's result type, the chain that was built, and what failed.
struct TrustOutcome: Sendable {
    let result: SecTrustResultType
    /// The leaf first, then its issuers as far as they were found (to the anchor when trusted).
    let chain: [SecCertificate]
    /// The most serious failure, or nil when trusted.
    let failure: TrustFailure?

    var isTrusted: Bool { result == .unspecified || result == .proceed }
}

/// Why a chain is not trusted, as Apple reports it: one of the policy checks of trustd, with its status.
///
/// When several checks fail, Apple's error names the most serious kind (its order: key size, then trust, usage,
/// name, validity; see `SecTrustCopyErrorStrings` and `SecPolicyChecks.list` in Apple's Security sources); the
/// evaluator finds them in that order.
struct TrustFailure: Sendable, Equatable {
    enum Check: Sendable, Equatable {
        /// `WeakKeySize`: a key of a type the evaluation cannot use. Fatal.
        case unsupportedKey
        /// `AnchorTrusted`: the chain ends at a self-signed certificate that is not a trusted anchor.
        case anchorNotTrusted
        /// `MissingIntermediate`: the chain ends at a certificate whose issuer was not found.
        case missingIntermediate
        /// `BasicCertificateProcessing`: a chain to an anchor exists but breaks a rule of RFC 5280 (basic
        /// constraints, key usage of an issuer, name constraints).
        case basicProcessing
        /// `ExtendedKeyUsage`: the leaf's extended key usage does not allow the SSL policy's purpose.
        case extendedKeyUsage
        /// `SSLHostname`: no subject alternative name of the leaf matches the SSL policy's host name.
        case hostname
        /// `TemporalValidity`: a certificate is not valid at the verify date (expired, or not yet valid).
        case temporalValidity
    }

    let check: Check
    /// The index in the chain of the certificate that failed.
    let index: Int

    /// Apple's status for the check.
    var status: OSStatus {
        switch check {
        case .unsupportedKey: errSecUnsupportedKeySize
        case .anchorNotTrusted: errSecNotTrusted
        case .missingIntermediate: errSecCreateChainFailed
        case .basicProcessing: errSecInvalidCertificateRef
        case .extendedKeyUsage: errSecInvalidExtendedKeyUsage
        case .hostname: errSecHostNameMismatch
        case .temporalValidity: errSecCertificateExpired
        }
    }

    /// Apple's result type for the check.
    var result: SecTrustResultType {
        check == .unsupportedKey ? .fatalTrustFailure : .recoverableTrustFailure
    }

    /// What went wrong, in Coffer's words, naming the certificate by its subject summary.
    func explanation(_ chain: [SecCertificate]) -> String {
        let name = chain.indices.contains(index) ? chain[index].attributes.subjectSummary ?? "certificate \(index)" : "certificate \(index)"
        let what: String =
            switch check {
            case .unsupportedKey: "has a public key the evaluation cannot use"
            case .anchorNotTrusted: "is self-signed and is not one of the trusted anchors"
            case .missingIntermediate: "was issued by a certificate that is neither among the certificates given nor a trusted anchor"
            case .basicProcessing: "is in a chain that breaks a rule of RFC 5280 (basic constraints, key usage or name constraints)"
            case .extendedKeyUsage: "has an extended key usage that does not allow the SSL policy's purpose"
            case .hostname: "has no subject alternative name matching the SSL policy's host name"
            case .temporalValidity: "is not valid at the verify date"
            }
        return "“\(name)” (certificate \(index) of the chain) \(what)"
    }

    /// The `CFError` ``SecTrustEvaluateWithError(_:_:)`` reports: Apple's status in ``kCFErrorDomainOSStatus``, a
    /// description, and an underlying error with the same code, as Apple's has.
    func error(_ chain: [SecCertificate]) -> CFError {
        let name = securityStatusNames[status] ?? "OSStatus \(status)"
        let description = "\(explanation(chain)): \(name) (\(status))"
        let underlying = NSError(domain: kCFErrorDomainOSStatus as String, code: Int(status), userInfo: [NSLocalizedDescriptionKey: description])
        return NSError(
            domain: kCFErrorDomainOSStatus as String, code: Int(status),
            userInfo: [NSLocalizedDescriptionKey: description, NSUnderlyingErrorKey: underlying])
    }
}
