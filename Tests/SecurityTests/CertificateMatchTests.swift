import CofferTestSupport
import Foundation
import KeychainModel
@_spi(Testing) import Security
import Testing

/// `kSecMatchIssuers`, `kSecMatchPolicy`, `kSecMatchValidOnDate` and `kSecMatchTrustedOnly` on certificate items,
/// as Apple's daemon applies them (`match_item`); on both transports.
@Suite(.timeLimit(.minutes(10))) struct CertificateMatchTests {
    private struct Chain {
        let root: SecCertificate
        let intermediate: SecCertificate
        let leaf: SecCertificate
    }

    private static func chain() throws -> Chain {
        let made = try OpenSSLCertificates.shared()
        func certificate(_ der: Data) throws -> SecCertificate { try #require(SecCertificateCreateWithData(nil, der as CFData)) }
        return Chain(root: try certificate(made.root.der), intermediate: try certificate(made.intermediate.der), leaf: try certificate(made.leaf.der))
    }

    private static func subject(_ certificate: SecCertificate) throws -> Data {
        try #require(SecCertificateCopyNormalizedSubjectSequence(certificate) as Data?)
    }

    /// The certificates `extra` matches, by subject summary; `[]` when the status is not found.
    private static func matching(_ extra: [String: Any]) -> (OSStatus, [String]) {
        let query: [String: Any] = [
            kSecClass as String: kSecClassCertificate, kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnRef as String: true,
        ]
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query.merging(extra) { _, new in new } as CFDictionary, &result)
        let summaries = ((result as? [Any]) ?? []).compactMap { ($0 as? SecCertificate).flatMap { SecCertificateCopySubjectSummary($0) as String? } }
        return (status, summaries.sorted())
    }

    private static func store(_ chain: Chain) {
        for certificate in [chain.root, chain.intermediate, chain.leaf] {
            #expect(SecItemAdd([kSecValueRef as String: certificate] as CFDictionary, nil) == errSecSuccess)
        }
    }

    /// `kSecMatchIssuers` follows issuers up through the keychain's certificates: the root's name selects what it
    /// issued and what those issued, the intermediate's name only the leaf.
    @Test(arguments: Transport.allCases) func issuersMatchThroughTheChainInTheKeychain(transport: Transport) throws {
        let chain = try Self.chain()
        let leafSummary = try #require(SecCertificateCopySubjectSummary(chain.leaf) as String?)
        let intermediateSummary = try #require(SecCertificateCopySubjectSummary(chain.intermediate) as String?)
        let rootSummary = try #require(SecCertificateCopySubjectSummary(chain.root) as String?)
        try withFreshKeychain(transport: transport) {
            Self.store(chain)
            let byRoot = Self.matching([kSecMatchIssuers as String: [try Self.subject(chain.root)]])
            #expect(byRoot.0 == errSecSuccess)
            #expect(byRoot.1 == [intermediateSummary, leafSummary, rootSummary].sorted(), "the self-signed root issued itself")
            #expect(Self.matching([kSecMatchIssuers as String: [try Self.subject(chain.intermediate)]]).1 == [leafSummary])
            let unknown = Data([0x30, 0x0F, 0x31, 0x0D, 0x30, 0x0B, 0x06, 0x03, 0x55, 0x04, 0x03, 0x0C, 0x04, 0x6E, 0x6F, 0x6E, 0x65])
            #expect(Self.matching([kSecMatchIssuers as String: [unknown]]).0 == errSecItemNotFound)
            // The limit applies after the match; a single Ref is the certificate itself.
            var one: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecMatchIssuers as String: [try Self.subject(chain.intermediate)],
                kSecReturnRef as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &one) == errSecSuccess)
            #expect(one as? SecCertificate == chain.leaf)
            #expect(Self.matching([kSecMatchIssuers as String: "not an array"]).0 == errSecParam)
        }
    }

    /// `kSecMatchValidOnDate` and an SSL `kSecMatchPolicy` (the certificate alone: purpose, host name, dates).
    @Test(arguments: Transport.allCases) func datesAndPoliciesSelectCertificates(transport: Transport) throws {
        let chain = try Self.chain()
        let leafSummary = try #require(SecCertificateCopySubjectSummary(chain.leaf) as String?)
        try withFreshKeychain(transport: transport) {
            Self.store(chain)
            #expect(Self.matching([kSecMatchValidOnDate as String: Date()]).1.count == 3)
            #expect(Self.matching([kSecMatchValidOnDate as String: NSNull()]).1.count == 3)
            #expect(Self.matching([kSecMatchValidOnDate as String: Date(timeIntervalSince1970: 0)]).0 == errSecItemNotFound)
            #expect(Self.matching([kSecMatchPolicy as String: SecPolicyCreateSSL(true, "leaf.example.com" as CFString)]).1 == [leafSummary])
            #expect(Self.matching([kSecMatchPolicy as String: SecPolicyCreateSSL(true, "other.example.com" as CFString)]).0 == errSecItemNotFound)
            // The basic policy evaluates the chain to the system's anchors, which do not include the test root.
            #expect(Self.matching([kSecMatchPolicy as String: SecPolicyCreateBasicX509()]).0 == errSecItemNotFound)
            #expect(Self.matching([kSecMatchTrustedOnly as String: true]).0 == errSecItemNotFound)
            #expect(Self.matching([kSecMatchTrustedOnly as String: false]).1.count == 3)
            #expect(Self.matching([kSecMatchPolicy as String: "no policy"]).0 == errSecParam)
        }
    }

    /// The matches keep the shapes the return keys ask for: attributes without the reference, data alone.
    @Test(arguments: Transport.allCases) func matchedResultsKeepTheirShapes(transport: Transport) throws {
        let chain = try Self.chain()
        try withFreshKeychain(transport: transport) {
            Self.store(chain)
            let issuers = [try Self.subject(chain.intermediate)]
            var attributes: CFTypeRef?
            let asAttributes: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecMatchIssuers as String: issuers, kSecReturnAttributes as String: true,
            ]
            #expect(SecItemCopyMatching(asAttributes as CFDictionary, &attributes) == errSecSuccess)
            let dictionary = try #require(attributes as? [String: Any])
            #expect(dictionary[kSecValueRef as String] == nil)
            #expect(dictionary[kSecAttrLabel as String] as? String == SecCertificateCopySubjectSummary(chain.leaf) as String?)
            var data: CFTypeRef?
            let asData: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecMatchIssuers as String: issuers, kSecReturnData as String: true,
            ]
            #expect(SecItemCopyMatching(asData as CFDictionary, &data) == errSecSuccess)
            #expect(data as? Data == SecCertificateCopyData(chain.leaf) as Data)
        }
    }
}
