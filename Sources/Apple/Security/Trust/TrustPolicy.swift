import Foundation
import SwiftASN1
@_spi(DisableValidityCheck) @_spi(FixedExpiryValidationTime) import X509

#if canImport(Glibc)
import Glibc
#endif

/// The checks of a trust's policies as one swift-certificates `VerifierPolicy`: RFC 5280's (with or without the
/// validity dates), then each SSL policy's extended key usage and host name on the leaf.
struct TrustPolicy: VerifierPolicy {
    var base: RFC5280Policy
    /// For each SSL policy, whether it is for a server (true) or a client.
    var sslPurposes: [Bool]
    /// The host names of the SSL policies that have one.
    var hostnames: [String]

    /// RFC 5280's extensions, and the two the SSL checks read: Apple's evaluation knows both, in every policy.
    var verifyingCriticalExtensions: [ASN1ObjectIdentifier] {
        base.verifyingCriticalExtensions + [.X509ExtensionID.subjectAlternativeName, .X509ExtensionID.extendedKeyUsage]
    }

    /// RFC 5280's checks with the validity dates checked at `time`, and every SSL check.
    static func complete(_ policies: [SecPolicy], at time: Date) -> TrustPolicy {
        TrustPolicy(base: RFC5280Policy(fixedExpiryValidationTime: time), sslPurposes: purposes(policies), hostnames: policies.compactMap(\.hostname))
    }

    /// RFC 5280's checks without the validity dates, and optionally the host names: what is left to tell why a
    /// chain failed.
    static func structure(hostnames: [String] = []) -> TrustPolicy {
        TrustPolicy(base: .withValidityCheckDisabled(), sslPurposes: [], hostnames: hostnames)
    }

    static func purposes(_ policies: [SecPolicy]) -> [Bool] {
        policies.compactMap { policy in
            if case .ssl(let server, _) = policy.kind { return server }
            return nil
        }
    }

    mutating func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        if case .failsToMeetPolicy(let reason) = base.chainMeetsPolicyRequirements(chain: chain) {
            return .failsToMeetPolicy(reason: reason)
        }
        for server in sslPurposes where !Self.allowsPurpose(of: chain.leaf, server: server) {
            return .failsToMeetPolicy(reason: "the leaf's extended key usage does not allow the SSL policy's purpose")
        }
        for hostname in hostnames {
            if case .failsToMeetPolicy(let reason) = Self.matchHostname(hostname, chain: chain) {
                return .failsToMeetPolicy(reason: reason)
            }
        }
        return .meetsPolicy
    }

    /// Apple's SSL rule: a leaf with no extended key usage, or one that includes `anyExtendedKeyUsage` or the
    /// purpose (server authentication or the server-gated cryptography purposes for a server, client authentication
    /// for a client).
    static func allowsPurpose(of leaf: Certificate, server: Bool) -> Bool {
        let usage: ExtendedKeyUsage?
        do { usage = try leaf.extensions.extendedKeyUsage } catch { return false }
        guard let usage else { return true }
        let accepted: [ExtendedKeyUsage.Usage] =
            server
            ? [.any, .serverAuth, .init(oid: netscapeServerGatedCrypto), .init(oid: microsoftServerGatedCrypto)]
            : [.any, .clientAuth]
        return usage.contains { accepted.contains($0) }
    }

    /// Netscape's server-gated cryptography purpose (2.16.840.1.113730.4.1).
    static let netscapeServerGatedCrypto: ASN1ObjectIdentifier = [2, 16, 840, 1, 113730, 4, 1]
    /// Microsoft's server-gated cryptography purpose (1.3.6.1.4.1.311.10.3.3).
    static let microsoftServerGatedCrypto: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 311, 10, 3, 3]

    /// Apple's host name rule: the leaf's subject alternative names only (DNS names, and IP addresses when the host
    /// name is one), never its common name. swift-certificates' `ServerIdentityPolicy` matches the names; it would
    /// fall back to the common name when there are none, so a leaf without any fails here first.
    static func matchHostname(_ hostname: String, chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        let names = try? chain.leaf.extensions.subjectAlternativeNames
        guard let names, !names.isEmpty else {
            return .failsToMeetPolicy(reason: "the leaf has no subject alternative names to match \(hostname)")
        }
        var identity = ServerIdentityPolicy(serverHostname: hostname, serverIP: isIPAddress(hostname) ? hostname : nil)
        return identity.chainMeetsPolicyRequirements(chain: chain)
    }

    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
