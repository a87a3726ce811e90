import Foundation
import SwiftASN1
import X509

/// Apple's `SecTrustEvaluateLeafOnly`, as `kSecMatchPolicy` uses it for any policy but the basic one: the
/// certificate alone against the policy's leaf checks — its extended key usage, its host name and its validity at
/// `time` — without building a chain.
enum LeafOnlyEvaluation {
    /// Whether `certificate` passes `policy`'s leaf checks at `time`.
    static func passes(_ certificate: SecCertificate, policy: SecPolicy, at time: Date) -> Bool {
        guard let leaf = try? Certificate(derEncoded: certificate.contents.der) else { return false }
        let checks = LeafPolicy(purposes: TrustPolicy.purposes([policy]), hostnames: [policy.hostname].compactMap { $0 }, time: time)
        return TrustEvaluationThread.shared.wait {
            // The certificate is its own root, so the verifier hands the policy the chain of the leaf alone.
            var verifier = Verifier(rootCertificates: CertificateStore([leaf])) { checks }
            if case .validCertificate = await verifier.validate(leaf: leaf, intermediates: CertificateStore()) { return true }
            return false
        }
    }

    /// The leaf checks of an SSL policy.
    private struct LeafPolicy: VerifierPolicy {
        let purposes: [Bool]
        let hostnames: [String]
        let time: Date

        var verifyingCriticalExtensions: [ASN1ObjectIdentifier] {
            [
                .X509ExtensionID.subjectAlternativeName, .X509ExtensionID.extendedKeyUsage, .X509ExtensionID.basicConstraints,
                .X509ExtensionID.keyUsage, .X509ExtensionID.nameConstraints,
            ]
        }

        mutating func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
            let leaf = chain.leaf
            guard time >= leaf.notValidBefore, time <= leaf.notValidAfter else {
                return .failsToMeetPolicy(reason: "the certificate is not valid at the verify date")
            }
            for server in purposes where !TrustPolicy.allowsPurpose(of: leaf, server: server) {
                return .failsToMeetPolicy(reason: "the certificate's extended key usage does not allow the policy's purpose")
            }
            for hostname in hostnames {
                if case .failsToMeetPolicy(let reason) = TrustPolicy.matchHostname(hostname, chain: chain) {
                    return .failsToMeetPolicy(reason: reason)
                }
            }
            return .meetsPolicy
        }
    }
}
