import CCofferSystem
import CofferRuntime
import Crypto
import Dispatch
import Foundation
import KeychainModel
@_spi(Testing) import Security
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

#if canImport(Glibc)
import Glibc
#endif

/// The figures of issue #15, each next to its baseline in the same run, measured in alternating blocks (this
/// machine is noisy): certificate parsing (`SecCertificateCreateWithData` against swift-certificates'
/// `Certificate(derEncoded:)`), trust evaluation of a 3-certificate P-256 chain (`SecTrust…` against
/// swift-certificates' `Verifier` called directly with the same root and policies, and against `openssl verify` as
/// a whole process), and an identity query against a plain key query on a keychain of 1 000 certificates and 1 000
/// keys.
enum CertificatesBenchmark {
    struct Figures {
        var rows: [ItemsBenchmark.Row]
    }

    /// The host name of the chain's leaf, and of the SSL policy.
    static let hostname = "bench.example"

    static func run(in scratch: URL, operations: Int, processRuns: Int, identities: Int = 1_000) throws -> Figures {
        var rows: [ItemsBenchmark.Row] = []
        func add(_ operation: String, _ samples: [Duration]) {
            rows.append(.init(size: 0, operation: operation, samples: samples))
        }
        let made = try IdentityMaterial(count: identities)

        // 1. Parsing: the same certificates, one after another, both ways.
        let cfData = made.certificates.map { Data($0) as CFData }
        let bytes = made.certificates
        var next = 0
        var nextDirect = 0
        let parsing = try alternating(
            operations: operations,
            [
                each {
                    next = (next + 1) % cfData.count
                    guard SecCertificateCreateWithData(nil, cfData[next]) != nil else { throw KeychainStatus.decode }
                },
                each {
                    nextDirect = (nextDirect + 1) % bytes.count
                    _ = try Certificate(derEncoded: bytes[nextDirect])
                },
            ])
        add("parse: `SecCertificateCreateWithData` (parse and derive Apple's attributes)", parsing[0])
        add("parse: swift-certificates `Certificate(derEncoded:)`", parsing[1])

        // 2. Trust: a root, an intermediate and a leaf for `hostname`, P-256.
        let chain = try TrustChain()
        let leaf = SecCertificateCreateWithData(nil, Data(chain.leafDER) as CFData)!
        let intermediate = SecCertificateCreateWithData(nil, Data(chain.intermediateDER) as CFData)!
        let root = SecCertificateCreateWithData(nil, Data(chain.rootDER) as CFData)!
        let certificates = [leaf, intermediate] as CFArray
        let anchors = [root] as CFArray
        func evaluate(_ policy: SecPolicy) throws {
            var trust: SecTrust?
            guard SecTrustCreateWithCertificates(certificates, policy, &trust) == errSecSuccess, let trust,
                SecTrustSetAnchorCertificates(trust, anchors) == errSecSuccess
            else { throw KeychainStatus.param }
            var error: CFError?
            guard SecTrustEvaluateWithError(trust, &error) else { throw KeychainStatus.param }
        }
        let ssl = SecPolicyCreateSSL(true, hostname as CFString)
        let basic = SecPolicyCreateBasicX509()
        // The verifier called from `async` code (the whole timed block runs in one task: no hop per call), and from
        // synchronous code as `SecTrustEvaluateWithError` is (a task per call, the caller waiting on a semaphore).
        func inTask(hostname: String?, parsingDER: Bool = false) -> (Int) throws -> [Duration] {
            { count in
                let (samples, failures) = Waiter.wait { await chain.timedValidations(count, hostname: hostname, parsingDER: parsingDER) }
                guard failures == 0 else { throw KeychainStatus.param }
                return samples
            }
        }
        let waiting = { (hostname: String?) in
            each { guard Waiter.wait({ await chain.validate(hostname: hostname) }) else { throw KeychainStatus.param } }
        }
        let sslRows = try alternating(
            operations: operations,
            [
                each { try evaluate(ssl) }, inTask(hostname: hostname), waiting(hostname), inTask(hostname: hostname, parsingDER: true),
            ])
        add("trust, SSL policy: `SecTrustCreateWithCertificates` + `SecTrustSetAnchorCertificates` + `SecTrustEvaluateWithError`", sslRows[0])
        add("trust, SSL policy: swift-certificates `Verifier` (RFC5280Policy + ServerIdentityPolicy), called directly from async code", sslRows[1])
        add("trust, SSL policy: the same `Verifier`, from synchronous code (a task per call, the caller waiting)", sslRows[2])
        add("trust, SSL policy: the same `Verifier` from async code, parsing the three DER certificates first", sslRows[3])
        let basicRows = try alternating(operations: operations, [each { try evaluate(basic) }, inTask(hostname: nil)])
        add("trust, basic X.509 policy: the same three calls", basicRows[0])
        add("trust, basic X.509 policy: swift-certificates `Verifier` (RFC5280Policy), called directly from async code", basicRows[1])

        // … and whole processes: `openssl verify`, next to a process that does nothing.
        let folder = scratch.appendingPathComponent("certificates-pem")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func write(_ certificate: Certificate, _ name: String) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try Data(certificate.serializeAsPEM().pemString.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let rootPEM = try write(chain.root, "root.pem")
        let intermediatePEM = try write(chain.intermediate, "intermediate.pem")
        let leafPEM = try write(chain.leaf, "leaf.pem")
        let openssl = ["/usr/bin/openssl", "verify", "-CAfile", rootPEM, "-untrusted", intermediatePEM, leafPEM]
        try runProcess(openssl)
        let processes = try alternating(
            operations: processRuns, blocks: 10,
            [
                each { try runProcess(openssl) }, each { try runProcess(["/bin/true"]) },
            ])
        add("trust: `openssl verify -CAfile root.pem -untrusted intermediate.pem leaf.pem`, whole process", processes[0])
        add("a process that does nothing (`/bin/true`), spawned and reaped the same way", processes[1])

        // 3. Identities: 1 000 certificates, 1 000 keys paired with them, embedded keychain.
        try SecurityTesting.withKeychain(at: scratch.appendingPathComponent("certificates-embedded")) {
            try addIdentities(made)
            var picks = ItemsBenchmark.RandomAccounts(count: identities)
            let queries = try alternating(
                operations: operations,
                [
                    each {
                        let query: [String: Any] = [
                            kSecClass as String: kSecClassIdentity, kSecAttrLabel as String: made.certificateLabel(picks.next()),
                            kSecReturnRef as String: true,
                        ]
                        var found: CFTypeRef?
                        let status = SecItemCopyMatching(query as CFDictionary, &found)
                        guard status == errSecSuccess, found is SecIdentity else { throw KeychainStatus(code: status == errSecSuccess ? errSecParam : status) }
                    },
                    each {
                        let query: [String: Any] = [
                            kSecClass as String: kSecClassKey, kSecAttrLabel as String: made.keyLabel(picks.next()),
                            kSecReturnRef as String: true,
                        ]
                        var found: CFTypeRef?
                        let status = SecItemCopyMatching(query as CFDictionary, &found)
                        guard status == errSecSuccess, found is SecKey else { throw KeychainStatus(code: status == errSecSuccess ? errSecParam : status) }
                    },
                    each {
                        let query: [String: Any] = [
                            kSecClass as String: kSecClassCertificate, kSecAttrLabel as String: made.certificateLabel(picks.next()),
                            kSecReturnRef as String: true,
                        ]
                        var found: CFTypeRef?
                        let status = SecItemCopyMatching(query as CFDictionary, &found)
                        guard status == errSecSuccess, found is SecCertificate else {
                            throw KeychainStatus(code: status == errSecSuccess ? errSecParam : status)
                        }
                    },
                    each {
                        let publicKey = made.keys[picks.next()].prefix(65)
                        let query: [String: Any] = [
                            kSecClass as String: kSecClassKey, kSecAttrApplicationLabel as String: Data(Insecure.SHA1.hash(data: publicKey)),
                            kSecReturnRef as String: true,
                        ]
                        var found: CFTypeRef?
                        let status = SecItemCopyMatching(query as CFDictionary, &found)
                        guard status == errSecSuccess, found is SecKey else { throw KeychainStatus(code: status == errSecSuccess ? errSecParam : status) }
                    },
                ])
            add("identity query (`kSecClassIdentity`, a certificate's label, `kSecReturnRef`), \(identities) certificates + \(identities) keys", queries[0])
            add("key query (`kSecClassKey`, a key's label, `kSecReturnRef`), same keychain", queries[1])
            add("certificate query (`kSecClassCertificate`, a certificate's label, `kSecReturnRef`), same keychain", queries[2])
            add("key query by application label (`kSecAttrApplicationLabel`, indexed, `kSecReturnRef`), same keychain", queries[3])
        }
        return Figures(rows: rows)
    }

    /// For profilers (`valgrind --tool=callgrind --toggle-collect='*profiledLoop*'`): `count` trust evaluations (SSL
    /// policy) of the benchmark's chain, then `count` identity queries on a keychain of `identities` identities.
    static func profilingLoops(in scratch: URL, count: Int, identities: Int) throws {
        let chain = try TrustChain()
        let certificates = [chain.leafDER, chain.intermediateDER].map { SecCertificateCreateWithData(nil, Data($0) as CFData)! } as CFArray
        let anchors = [SecCertificateCreateWithData(nil, Data(chain.rootDER) as CFData)!] as CFArray
        let policy = SecPolicyCreateSSL(true, hostname as CFString)
        try profiledLoopTrust(count) {
            var trust: SecTrust?
            guard SecTrustCreateWithCertificates(certificates, policy, &trust) == errSecSuccess, let trust,
                SecTrustSetAnchorCertificates(trust, anchors) == errSecSuccess, SecTrustEvaluateWithError(trust, nil)
            else { throw KeychainStatus.param }
        }
        let made = try IdentityMaterial(count: identities)
        try SecurityTesting.withKeychain(at: scratch.appendingPathComponent("certificates-loop")) {
            try addIdentities(made)
            var picks = ItemsBenchmark.RandomAccounts(count: identities)
            try profiledLoopIdentity(count) {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassIdentity, kSecAttrLabel as String: made.certificateLabel(picks.next()),
                    kSecReturnRef as String: true,
                ]
                var found: CFTypeRef?
                guard SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess else { throw KeychainStatus.itemNotFound }
            }
            try profiledLoopKey(count) {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassKey, kSecAttrLabel as String: made.keyLabel(picks.next()),
                    kSecReturnRef as String: true,
                ]
                var found: CFTypeRef?
                guard SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess else { throw KeychainStatus.itemNotFound }
            }
        }
    }

    @inline(never) static func profiledLoopTrust(_ count: Int, _ body: () throws -> Void) rethrows { for _ in 0..<count { try body() } }
    @inline(never) static func profiledLoopIdentity(_ count: Int, _ body: () throws -> Void) rethrows { for _ in 0..<count { try body() } }
    @inline(never) static func profiledLoopKey(_ count: Int, _ body: () throws -> Void) rethrows { for _ in 0..<count { try body() } }

    /// Adds each certificate of `made` and its key, separately, each with its own label.
    static func addIdentities(_ made: IdentityMaterial) throws {
        let keyAttributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
        ]
        for index in made.keys.indices {
            let certificate = SecCertificateCreateWithData(nil, Data(made.certificates[index]) as CFData)!
            let key = SecKeyCreateWithData(made.keys[index] as CFData, keyAttributes as CFDictionary, nil)!
            guard SecIdentityCreate(nil, certificate, key) != nil else { throw KeychainStatus.param }
            let addCertificate: [String: Any] = [kSecValueRef as String: certificate, kSecAttrLabel as String: made.certificateLabel(index)]
            let addKey: [String: Any] = [kSecValueRef as String: key, kSecAttrLabel as String: made.keyLabel(index)]
            var status = SecItemAdd(addCertificate as CFDictionary, nil)
            guard status == errSecSuccess else { throw KeychainStatus(code: status) }
            status = SecItemAdd(addKey as CFDictionary, nil)
            guard status == errSecSuccess else { throw KeychainStatus(code: status) }
        }
    }

    /// Runs each of `measures` for `operations` calls in all, in `blocks` rounds where each measures its share in
    /// turn (first, second, …, first, second, …), after a few calls of each that are not counted. A measure times
    /// the number of calls it is given and returns one duration per call.
    static func alternating(
        operations: Int, blocks: Int = 20, _ measures: [(Int) throws -> [Duration]]
    ) throws -> [[Duration]] {
        for measure in measures { _ = try measure(min(operations, 10)) }
        var samples = Array(repeating: [Duration](), count: measures.count)
        let perBlock = max(operations / blocks, 1)
        var done = 0
        while done < operations {
            let count = min(perBlock, operations - done)
            for (index, measure) in measures.enumerated() { samples[index] += try measure(count) }
            done += count
        }
        return samples
    }

    /// A measure of `body`, each call timed.
    static func each(_ body: @escaping () throws -> Void) -> (Int) throws -> [Duration] {
        { count in try ItemsBenchmark.timed(count, body) }
    }

    /// Runs `arguments` to completion with this process's environment; throws unless it exits 0.
    static func runProcess(_ arguments: [String]) throws {
        try BenchmarkProcesses.run(arguments, environment: ProcessInfo.processInfo.environment)
    }
}

/// `count` P-256 keys, each with a self-signed certificate of its own subject (swift-certificates).
struct IdentityMaterial {
    /// Each key's external representation (04 ‖ X ‖ Y ‖ D), as `SecKeyCreateWithData` takes it.
    let keys: [Data]
    /// Each key's certificate, DER.
    let certificates: [[UInt8]]

    init(count: Int) throws {
        let now = Date()
        var keys: [Data] = []
        var certificates: [[UInt8]] = []
        for index in 0..<count {
            let key = P256.Signing.PrivateKey()
            let name = try DistinguishedName {
                CommonName("Coffer Bench Identity \(index)")
                OrganizationName("Coffer")
            }
            let publicKey = Certificate.PublicKey(key.publicKey)
            let certificate = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: publicKey,
                notValidBefore: now - 3_600, notValidAfter: now + 365 * 86_400, issuer: name, subject: name,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.clientAuth])
                    SubjectKeyIdentifier(hash: publicKey)
                    SubjectAlternativeNames([.rfc822Name("identity\(index)@bench.example")])
                },
                issuerPrivateKey: .init(key))
            keys.append(key.x963Representation)
            certificates.append(TrustChain.der(certificate))
        }
        self.keys = keys
        self.certificates = certificates
    }

    func certificateLabel(_ index: Int) -> String { "bench-certificate-\(index)" }
    func keyLabel(_ index: Int) -> String { "bench-key-\(index)" }
}

/// A root, an intermediate and a leaf for ``CertificatesBenchmark/hostname``, P-256, valid from an hour ago for a day
/// (leaf), two (intermediate), three (root).
struct TrustChain: Sendable {
    let root: Certificate
    let intermediate: Certificate
    let leaf: Certificate
    let rootDER: [UInt8]
    let intermediateDER: [UInt8]
    let leafDER: [UInt8]

    init() throws {
        let now = Date()
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName {
            CommonName("Coffer Bench Root"); OrganizationName("Coffer")
        }
        let intermediateName = try DistinguishedName {
            CommonName("Coffer Bench Intermediate"); OrganizationName("Coffer")
        }
        let leafName = try DistinguishedName { CommonName(CertificatesBenchmark.hostname) }
        let rootPublic = Certificate.PublicKey(rootKey.publicKey)
        let intermediatePublic = Certificate.PublicKey(intermediateKey.publicKey)
        let leafPublic = Certificate.PublicKey(leafKey.publicKey)
        root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: rootPublic,
            notValidBefore: now - 3_600, notValidAfter: now + 3 * 86_400, issuer: rootName, subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: rootPublic)
            },
            issuerPrivateKey: .init(rootKey))
        intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: intermediatePublic,
            notValidBefore: now - 3_600, notValidAfter: now + 2 * 86_400, issuer: rootName, subject: intermediateName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: intermediatePublic)
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: rootPublic).keyIdentifier)
            },
            issuerPrivateKey: .init(rootKey))
        leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: leafPublic,
            notValidBefore: now - 3_600, notValidAfter: now + 86_400, issuer: intermediateName, subject: leafName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.dnsName(CertificatesBenchmark.hostname)])
                SubjectKeyIdentifier(hash: leafPublic)
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: intermediatePublic).keyIdentifier)
            },
            issuerPrivateKey: .init(intermediateKey))
        rootDER = Self.der(root)
        intermediateDER = Self.der(intermediate)
        leafDER = Self.der(leaf)
    }

    static func der(_ certificate: Certificate) -> [UInt8] {
        var serializer = DER.Serializer()
        try! serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// swift-certificates' verifier as an application would call it: the root as the only trust root, the
    /// intermediate as the only other certificate, RFC 5280's policy at the time of the call and, with `hostname`,
    /// the server-name policy. With `parsingDER`, the three certificates are parsed from DER first, as Coffer's
    /// evaluation does with its `SecCertificate`s.
    func validate(hostname: String?, parsingDER: Bool = false) async -> Bool {
        let root: Certificate, intermediate: Certificate, leaf: Certificate
        if parsingDER {
            guard let r = try? Certificate(derEncoded: rootDER), let i = try? Certificate(derEncoded: intermediateDER),
                let l = try? Certificate(derEncoded: leafDER)
            else { return false }
            (root, intermediate, leaf) = (r, i, l)
        } else {
            (root, intermediate, leaf) = (self.root, self.intermediate, self.leaf)
        }
        let result: CertificateValidationResult
        if let hostname {
            var verifier = Verifier(rootCertificates: CertificateStore([root])) {
                RFC5280Policy(fixedExpiryValidationTime: Date())
                ServerIdentityPolicy(serverHostname: hostname, serverIP: nil)
            }
            result = await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate]))
        } else {
            var verifier = Verifier(rootCertificates: CertificateStore([root])) {
                RFC5280Policy(fixedExpiryValidationTime: Date())
            }
            result = await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate]))
        }
        if case .validCertificate = result { return true }
        return false
    }

    /// `count` calls of ``validate(hostname:parsingDER:)`` in this task, each timed, and how many failed.
    func timedValidations(_ count: Int, hostname: String?, parsingDER: Bool) async -> ([Duration], Int) {
        let clock = ContinuousClock()
        var samples: [Duration] = []
        samples.reserveCapacity(count)
        var failures = 0
        for _ in 0..<count {
            let start = clock.now
            let valid = await validate(hostname: hostname, parsingDER: parsingDER)
            samples.append(clock.now - start)
            if !valid { failures += 1 }
        }
        return (samples, failures)
    }
}

/// Runs an `async` function from synchronous code: a task on Swift's pool, the calling thread waiting on a
/// semaphore.
enum Waiter {
    static func wait<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value {
        let slot = BlockingResult<Value>()
        Task { slot.deliver(await work()) }
        return slot.take()
    }
}
