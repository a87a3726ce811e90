import Foundation
import KeychainModel
import Security

/// Whether an identity's certificate is valid for a policy, as `security find-identity` decides it: a `SecTrust` of
/// the certificate (with the keychain's other certificates as candidate intermediates, as macOS finds them in its
/// keychains), evaluated against the system's anchors, or only against the given ones.
struct IdentityTrust {
    /// The keychain's certificates, candidate intermediates.
    let intermediates: [SecCertificate]
    /// The anchors trusted instead of the system's; empty for the system's.
    let anchors: [SecCertificate]

    /// Nil when `certificate` is trusted for `policy`; else why not, in `security`'s words (see ``resultName(_:)``).
    func failure(of certificate: SecCertificate, for policy: SecPolicy) -> String? {
        let others = intermediates.filter { $0 != certificate }
        var created: SecTrust?
        guard SecTrustCreateWithCertificates(([certificate] + others) as CFArray, policy, &created) == errSecSuccess,
            let trust = created
        else { return Self.resultName(errSecParam) }
        if !anchors.isEmpty { _ = SecTrustSetAnchorCertificates(trust, anchors as CFArray) }
        var error: CFError?
        guard !SecTrustEvaluateWithError(trust, &error) else { return nil }
        return Self.resultName(error.map { OSStatus(truncatingIfNeeded: CFErrorGetCode($0)) } ?? errSecNotTrusted)
    }

    /// The name `security` prints for a failed evaluation: the CSSM result code macOS reports
    /// (`SecTrustGetCssmResultCode`, named by `cssmErrorString`) for the statuses that have one, else the status's
    /// own name. A chain that reaches no anchor is `CSSMERR_TP_NOT_TRUSTED` on macOS, whatever stopped it.
    static func resultName(_ status: OSStatus) -> String {
        switch status {
        case errSecNotTrusted, errSecCreateChainFailed: "CSSMERR_TP_NOT_TRUSTED"
        case errSecCertificateExpired: "CSSMERR_TP_CERT_EXPIRED"
        case errSecCertificateNotValidYet: "CSSMERR_TP_CERT_NOT_VALID_YET"
        case errSecHostNameMismatch: "CSSMERR_APPLETP_HOSTNAME_MISMATCH"
        case errSecInvalidExtendedKeyUsage: "CSSMERR_APPLETP_INVALID_EXTENDED_KEY_USAGE"
        case errSecInvalidCertificateRef: "CSSMERR_TP_INVALID_CERTIFICATE"
        default: KeychainStatus(code: status).name
        }
    }
}
