import Dispatch
import Foundation
import Testing

@testable import Security

/// `SecTrust` and `SecPolicy` against a small PKI the `openssl` command makes at test time: a root CA (RSA), an
/// intermediate CA (P-256) and leaves for `example.test`, with Apple's statuses for each kind of failure.
@Suite(.timeLimit(.minutes(10))) struct SecTrustTests {
    private let pki: TrustTestPKI

    init() throws {
        pki = try TrustTestPKI.shared()
    }

    private func makeTrust(
        _ certificates: [SecCertificate], _ policies: CFTypeRef? = SecPolicyCreateSSL(true, "example.test" as CFString),
        anchors: [SecCertificate]?
    ) throws -> SecTrust {
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates(certificates as CFArray, policies, &trust) == errSecSuccess)
        let made = try #require(trust)
        if let anchors { #expect(SecTrustSetAnchorCertificates(made, anchors as CFArray) == errSecSuccess) }
        return made
    }

    /// (trusted, the error's domain, the error's code, the underlying error's code) of an evaluation.
    private func evaluate(_ trust: SecTrust) -> (Bool, String?, Int?, Int?) {
        var error: CFError?
        let trusted = SecTrustEvaluateWithError(trust, &error)
        let underlying = error?.userInfo[NSUnderlyingErrorKey] as? NSError
        return (trusted, error.map { CFErrorGetDomain($0) as String }, error.map { CFErrorGetCode($0) }, underlying?.code)
    }

    private func result(_ trust: SecTrust) -> SecTrustResultType {
        var result = SecTrustResultType.invalid
        #expect(SecTrustGetTrustResult(trust, &result) == errSecSuccess)
        return result
    }

    private func chain(_ trust: SecTrust) -> [Data] {
        (SecTrustCopyCertificateChain(trust) as? [SecCertificate] ?? []).map { SecCertificateCopyData($0) as Data }
    }

    @Test func validLeafWithExplicitAnchorsIsTrustedWithItsChain() throws {
        let trust = try makeTrust([pki.leaf, pki.intermediate], anchors: [pki.root])
        #expect(evaluate(trust) == (true, nil, nil, nil))
        #expect(result(trust) == .unspecified)
        #expect(chain(trust) == [pki.leaf, pki.intermediate, pki.root].map { SecCertificateCopyData($0) as Data })
        #expect(SecTrustGetCertificateCount(trust) == 3)
        let key = try #require(SecTrustCopyKey(trust))
        let leafKey = try #require(SecCertificateCopyKey(pki.leaf))
        #expect(SecKeyCopyExternalRepresentation(key, nil) as Data? == SecKeyCopyExternalRepresentation(leafKey, nil) as Data?)
        #expect(CFGetTypeID(trust) == SecTrustGetTypeID())
        #expect(SecTrustGetTypeID() != SecPolicyGetTypeID())
        #expect(CFGetTypeID(SecPolicyCreateBasicX509()) == SecPolicyGetTypeID())
    }

    @Test func trustResultIsEvaluatedOnDemandAndDiscardedBySettings() throws {
        // Apple's SecTrustGetTrustResult evaluates a trust that has no result (SecTrust.c).
        let trust = try makeTrust([pki.leaf, pki.intermediate], anchors: [pki.root])
        #expect(trust.lastOutcome == nil)
        #expect(result(trust) == .unspecified)
        #expect(trust.lastOutcome?.result == .unspecified)
        #expect(SecTrustSetAnchorCertificates(trust, [pki.otherRoot] as CFArray) == errSecSuccess)
        #expect(trust.lastOutcome == nil)
        #expect(result(trust) == .recoverableTrustFailure)
    }

    @Test func intermediatesMayComeInAnyOrderAndASingleCertificateIsAccepted() throws {
        let shuffled = try makeTrust([pki.leaf, pki.root, pki.otherIntermediate, pki.intermediate], anchors: [pki.root])
        #expect(evaluate(shuffled).0)
        #expect(chain(shuffled).count == 3)
        var single: SecTrust?
        #expect(SecTrustCreateWithCertificates(pki.root, nil, &single) == errSecSuccess)
        let root = try #require(single)
        #expect(SecTrustSetAnchorCertificates(root, [pki.root] as CFArray) == errSecSuccess)
        #expect(evaluate(root) == (true, nil, nil, nil))
        #expect(SecTrustGetCertificateCount(root) == 1)
    }

    @Test func expiredLeafFailsUnlessTheVerifyDateIsInsideItsValidity() throws {
        let trust = try makeTrust([pki.expired, pki.intermediate], anchors: [pki.root])
        #expect(evaluate(trust) == (false, "NSOSStatusErrorDomain", -67818, -67818))
        #expect(result(trust) == .recoverableTrustFailure)
        #expect(chain(trust).count == 3)
        // 1 June 2020: the leaf (2020-2021), the intermediate and the root are all valid.
        #expect(SecTrustSetVerifyDate(trust, Date(timeIntervalSince1970: 1_590_969_600) as CFDate) == errSecSuccess)
        #expect(evaluate(trust) == (true, nil, nil, nil))
        #expect(result(trust) == .unspecified)
    }

    @Test func notYetValidLeafGivesTheExpiredStatusAsApplesPoliciesDo() throws {
        let trust = try makeTrust([pki.future, pki.intermediate], anchors: [pki.root])
        #expect(evaluate(trust) == (false, "NSOSStatusErrorDomain", -67818, -67818))
    }

    @Test func hostnameMismatchFailsTheSSLPolicyButNotTheBasicOne() throws {
        let ssl = try makeTrust([pki.otherHost, pki.intermediate], anchors: [pki.root])
        #expect(evaluate(ssl) == (false, "NSOSStatusErrorDomain", -67602, -67602))
        #expect(result(ssl) == .recoverableTrustFailure)
        #expect(chain(ssl).count == 3)
        let basic = try makeTrust([pki.otherHost, pki.intermediate], SecPolicyCreateBasicX509(), anchors: [pki.root])
        #expect(evaluate(basic) == (true, nil, nil, nil))
        let noPolicy = try makeTrust([pki.otherHost, pki.intermediate], nil, anchors: [pki.root])
        #expect(evaluate(noPolicy) == (true, nil, nil, nil))
        // A host name is checked against the subject alternative names, without case, never the common name.
        let upper = try makeTrust([pki.leaf, pki.intermediate], SecPolicyCreateSSL(true, "EXAMPLE.test" as CFString), anchors: [pki.root])
        #expect(evaluate(upper).0)
        let commonNameOnly = try makeTrust([pki.commonNameOnly, pki.intermediate], anchors: [pki.root])
        #expect(evaluate(commonNameOnly) == (false, "NSOSStatusErrorDomain", -67602, -67602))
        // No host name: not checked.
        let anyHost = try makeTrust([pki.otherHost, pki.intermediate], SecPolicyCreateSSL(true, nil), anchors: [pki.root])
        #expect(evaluate(anyHost) == (true, nil, nil, nil))
    }

    @Test func hostnameMismatchOutranksExpiry() throws {
        let trust = try makeTrust([pki.expired, pki.intermediate], SecPolicyCreateSSL(true, "other.test" as CFString), anchors: [pki.root])
        #expect(evaluate(trust) == (false, "NSOSStatusErrorDomain", -67602, -67602))
    }

    @Test func serverOnlyLeafFailsTheClientPolicy() throws {
        let trust = try makeTrust([pki.leaf, pki.intermediate], SecPolicyCreateSSL(false, "example.test" as CFString), anchors: [pki.root])
        #expect(evaluate(trust) == (false, "NSOSStatusErrorDomain", -67609, -67609))
        #expect(SecTrustSetPolicies(trust, [SecPolicyCreateBasicX509(), SecPolicyCreateSSL(true, "example.test" as CFString)] as CFArray) == errSecSuccess)
        #expect(evaluate(trust) == (true, nil, nil, nil))
        var policies: CFArray?
        #expect(SecTrustCopyPolicies(trust, &policies) == errSecSuccess)
        #expect((policies as? [SecPolicy])?.count == 2)
    }

    @Test func untrustedRootGivesNotTrusted() throws {
        let trust = try makeTrust([pki.leaf, pki.intermediate, pki.root], anchors: [pki.otherRoot])
        #expect(evaluate(trust) == (false, "NSOSStatusErrorDomain", -67843, -67843))
        #expect(result(trust) == .recoverableTrustFailure)
        #expect(chain(trust).count == 3)
        // Untrusted outranks a host name mismatch.
        let both = try makeTrust([pki.otherHost, pki.intermediate, pki.root], anchors: [pki.otherRoot])
        #expect(evaluate(both) == (false, "NSOSStatusErrorDomain", -67843, -67843))
    }

    @Test func selfSignedLeafGivesNotTrusted() throws {
        let trust = try makeTrust([pki.selfSigned], anchors: [pki.root])
        #expect(evaluate(trust) == (false, "NSOSStatusErrorDomain", -67843, -67843))
        #expect(chain(trust) == [SecCertificateCopyData(pki.selfSigned) as Data])
        #expect(result(trust) == .recoverableTrustFailure)
    }

    @Test func missingIntermediateGivesCreateChainFailed() throws {
        // The leaf's issuer, the other intermediate, is not supplied.
        let trust = try makeTrust([pki.orphan, pki.intermediate], anchors: [pki.root])
        #expect(evaluate(trust) == (false, "NSOSStatusErrorDomain", -25318, -25318))
        #expect(result(trust) == .recoverableTrustFailure)
        #expect(chain(trust) == [SecCertificateCopyData(pki.orphan) as Data])
    }

    @Test func systemAnchorsLoadAndDoNotTrustTheTestRoot() throws {
        if FileManager.default.fileExists(atPath: "/etc/ssl/certs/ca-certificates.crt") {
            #expect(SystemAnchors.certificates.count > 0)
        }
        #expect(SystemAnchors.load("/nonexistent/bundle.crt").isEmpty)
        // System anchors only (the default): the chain stops at the intermediate, whose issuer is not given.
        let withoutRoot = try makeTrust([pki.leaf, pki.intermediate], anchors: nil)
        #expect(evaluate(withoutRoot) == (false, "NSOSStatusErrorDomain", -25318, -25318))
        #expect(chain(withoutRoot).count == 2)
        // With the root given as a certificate: a self-signed root that is not a system anchor.
        let withRoot = try makeTrust([pki.leaf, pki.intermediate, pki.root], anchors: nil)
        #expect(evaluate(withRoot) == (false, "NSOSStatusErrorDomain", -67843, -67843))
        // Custom anchors plus the system's: trusted; back to the system's only: not.
        #expect(SecTrustSetAnchorCertificates(withRoot, [pki.root] as CFArray) == errSecSuccess)
        #expect(SecTrustSetAnchorCertificatesOnly(withRoot, false) == errSecSuccess)
        #expect(evaluate(withRoot).0)
        #expect(SecTrustSetAnchorCertificates(withRoot, nil) == errSecSuccess)
        #expect(evaluate(withRoot) == (false, "NSOSStatusErrorDomain", -67843, -67843))
        // Anchors only, with none set: nothing is trusted.
        #expect(SecTrustSetAnchorCertificatesOnly(withRoot, true) == errSecSuccess)
        #expect(evaluate(withRoot) == (false, "NSOSStatusErrorDomain", -67843, -67843))
    }

    @Test func refusesWhatIsNotACertificateOrPolicy() throws {
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates([] as CFArray, nil, &trust) == errSecParam)
        #expect(SecTrustCreateWithCertificates("leaf" as CFString, nil, &trust) == errSecParam)
        #expect(SecTrustCreateWithCertificates([pki.leaf, "x" as CFString] as CFArray, nil, &trust) == errSecParam)
        #expect(SecTrustCreateWithCertificates(pki.leaf, [pki.leaf] as CFArray, &trust) == errSecParam)
        #expect(SecTrustCreateWithCertificates(pki.leaf, [] as CFArray, &trust) == errSecParam)
        #expect(trust == nil)
        let made = try makeTrust([pki.leaf], anchors: nil)
        #expect(SecTrustSetAnchorCertificates(made, [pki.root, SecPolicyCreateBasicX509()] as CFArray) == errSecParam)
        #expect(SecTrustSetPolicies(made, [] as CFArray) == errSecParam)
        #expect(SecTrustSetPolicies(made, pki.root) == errSecParam)
        #expect(SecTrustSetPolicies(made, SecPolicyCreateBasicX509()) == errSecSuccess)
    }

    @Test func asyncEvaluationCallsBackOnTheQueue() async throws {
        let queue = DispatchQueue(label: "trust-test")
        let good = try makeTrust([pki.leaf, pki.intermediate], anchors: [pki.root])
        let bad = try makeTrust([pki.otherHost, pki.intermediate], anchors: [pki.root])
        for (trust, expected) in [(good, (true, 0)), (bad, (false, -67602))] {
            let answer: (Bool, Int) = await withCheckedContinuation { continuation in
                queue.async {
                    let status = SecTrustEvaluateAsyncWithError(trust, queue) { _, trusted, error in
                        continuation.resume(returning: (trusted, error.map { CFErrorGetCode($0) } ?? 0))
                    }
                    #expect(status == errSecSuccess)
                }
            }
            #expect(answer == expected)
        }
    }

    @Test func manyConcurrentTasksEvaluateWithoutDeadlock() async throws {
        let certificates = [pki.leaf, pki.intermediate]
        let root = pki.root
        let answers = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    var trust: SecTrust?
                    _ = SecTrustCreateWithCertificates(certificates as CFArray, SecPolicyCreateSSL(true, "example.test" as CFString), &trust)
                    guard let trust else { return false }
                    _ = SecTrustSetAnchorCertificates(trust, [root] as CFArray)
                    var error: CFError?
                    let trusted = SecTrustEvaluateWithError(trust, &error)
                    return index.isMultiple(of: 2) ? trusted : trusted && SecTrustGetCertificateCount(trust) == 3
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(answers == Array(repeating: true, count: 16))
    }
}

/// The test PKI, made once per test process by `openssl ca` (which can set validity dates in the past and future).
struct TrustTestPKI: @unchecked Sendable {
    // SecCertificate is Sendable; the struct is only read.
    let root, intermediate, otherIntermediate, otherRoot: SecCertificate
    let leaf, expired, future, otherHost, commonNameOnly, orphan, selfSigned: SecCertificate

    private static let made: Result<TrustTestPKI, OpenSSLWorkspace.Failure> =
        Result { try make() }.mapError { OpenSSLWorkspace.Failure(description: "\($0)") }

    static func shared() throws -> TrustTestPKI { try made.get() }

    private static func make() throws -> TrustTestPKI {
        let workspace = try OpenSSLWorkspace()
        defer { workspace.remove() }
        try workspace.write("index.txt", "")
        try workspace.write("serial", "1000\n")
        try workspace.write(
            "ca.cnf",
            """
            [ca]
            default_ca = test
            [test]
            database = \(workspace.path("index.txt"))
            new_certs_dir = \(workspace.folder)
            serial = \(workspace.path("serial"))
            default_md = sha256
            policy = anything
            unique_subject = no
            [anything]
            commonName = supplied
            [req]
            distinguished_name = dn
            [dn]
            [root]
            basicConstraints = critical, CA:true
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            [intermediate]
            basicConstraints = critical, CA:true, pathlen:0
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            [server]
            basicConstraints = CA:false
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:example.test, DNS:www.example.test
            [other]
            basicConstraints = CA:false
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:other.test
            [plain]
            basicConstraints = CA:false

            """)
        /// A certificate for a new key, signed by `issuer` (itself when nil), valid from `start` to `end`.
        func make(
            _ name: String, _ subject: String, by issuer: String?, _ start: String, _ end: String, _ extensions: String,
            rsa: Bool = false
        ) throws -> SecCertificate {
            try workspace.openssl(
                ["genpkey", "-out", "@\(name).key"]
                    + (rsa ? ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"] : ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]))
            try workspace.openssl("req", "-new", "-config", "@ca.cnf", "-key", "@\(name).key", "-subj", subject, "-out", "@\(name).csr")
            let signer = issuer.map { ["-cert", "@\($0).pem", "-keyfile", "@\($0).key"] } ?? ["-selfsign", "-keyfile", "@\(name).key"]
            try workspace.openssl(
                [
                    "ca", "-batch", "-notext", "-config", "@ca.cnf", "-in", "@\(name).csr", "-out", "@\(name).pem", "-startdate", start,
                    "-enddate", end, "-extfile", "@ca.cnf", "-extensions", extensions,
                ] + signer)
            let der = try workspace.certificateDER(name)
            guard let certificate = SecCertificateCreateWithData(nil, der as CFData) else {
                throw OpenSSLWorkspace.Failure(description: "\(name) does not parse")
            }
            return certificate
        }
        let root = try make("root", "/O=Coffer Test/CN=Trust Test Root", by: nil, "20190101000000Z", "20450101000000Z", "root", rsa: true)
        let otherRoot = try make("otherroot", "/O=Coffer Test/CN=Trust Test Other Root", by: nil, "20190101000000Z", "20450101000000Z", "root")
        let intermediate = try make(
            "intermediate", "/O=Coffer Test/CN=Trust Test Intermediate", by: "root", "20190601000000Z", "20440101000000Z", "intermediate")
        let otherIntermediate = try make(
            "otherintermediate", "/O=Coffer Test/CN=Trust Test Other Intermediate", by: "root", "20190601000000Z", "20440101000000Z",
            "intermediate")
        return TrustTestPKI(
            root: root, intermediate: intermediate, otherIntermediate: otherIntermediate, otherRoot: otherRoot,
            leaf: try make("leaf", "/CN=example.test", by: "intermediate", "20240101000000Z", "20400101000000Z", "server"),
            expired: try make("expired", "/CN=example.test", by: "intermediate", "20200101000000Z", "20210101000000Z", "server"),
            future: try make("future", "/CN=example.test", by: "intermediate", "20410101000000Z", "20420101000000Z", "server"),
            otherHost: try make("otherhost", "/CN=other.test", by: "intermediate", "20240101000000Z", "20400101000000Z", "other"),
            commonNameOnly: try make("cnonly", "/CN=example.test", by: "intermediate", "20240101000000Z", "20400101000000Z", "plain"),
            orphan: try make("orphan", "/CN=example.test", by: "otherintermediate", "20240101000000Z", "20400101000000Z", "server"),
            selfSigned: try make("self", "/CN=example.test", by: nil, "20240101000000Z", "20400101000000Z", "server"))
    }
}
