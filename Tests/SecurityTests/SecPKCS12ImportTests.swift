import Foundation
import Security
import Testing

/// `SecPKCS12Import` against files `openssl pkcs12 -export` writes at test time (OpenSSL 3's default, `-legacy`, and
/// 3DES with a SHA-1 MAC), with RSA and P-256 keys and a 2-certificate chain: Apple's item dictionaries, the
/// identity's key and certificate, and Apple's statuses for a wrong passphrase and for bad bytes.
@Suite(.timeLimit(.minutes(10))) struct SecPKCS12ImportTests {
    static let forms: [String: [String]] = [
        "default": [],
        "legacy": ["-legacy"],
        "tripleDES": ["-keypbe", "PBE-SHA1-3DES", "-certpbe", "PBE-SHA1-3DES", "-macalg", "sha1"],
    ]
    static let passphrase = "correct horse ✓"
    static let name = "Coffer Import Identity"

    /// The leaf and CA certificates and the files of each form, for one key kind.
    struct Made: Sendable {
        let leaf: Data
        let ca: Data
        let files: [String: Data]
    }

    static let rsa = Result { try make(keyOptions: ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]) }
    static let p256 = Result { try make(keyOptions: ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]) }

    private static func make(keyOptions: [String]) throws -> Made {
        let workspace = try OpenSSLWorkspace()
        defer { workspace.remove() }
        try workspace.openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "@ca.key", "-out", "@ca.pem", "-days", "30",
            "-subj", "/CN=Coffer Import Test CA", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
        try workspace.openssl(["genpkey"] + keyOptions + ["-out", "@leaf.key"])
        try workspace.openssl(["req", "-new", "-key", "@leaf.key", "-subj", "/CN=client.example.com", "-out", "@leaf.csr"])
        try workspace.openssl([
            "x509", "-req", "-in", "@leaf.csr", "-CA", "@ca.pem", "-CAkey", "@ca.key", "-set_serial", "77", "-days", "30", "-out", "@leaf.pem",
        ])
        try workspace.write("passphrase", passphrase + "\n")
        var files: [String: Data] = [:]
        for (form, options) in forms {
            try workspace.openssl(
                [
                    "pkcs12", "-export", "-inkey", "@leaf.key", "-in", "@leaf.pem", "-certfile", "@ca.pem", "-name", name,
                    "-passout", "file:" + workspace.path("passphrase"), "-out", "@\(form).p12",
                ] + options)
            files[form] = try workspace.read("\(form).p12")
        }
        return Made(leaf: try workspace.certificateDER("leaf"), ca: try workspace.certificateDER("ca"), files: files)
    }

    static let cases: [(String, String)] = ["rsa", "p256"].flatMap { kind in forms.keys.sorted().map { (kind, $0) } }

    private func made(_ kind: String) throws -> Made { try (kind == "rsa" ? Self.rsa : Self.p256).get() }

    private func importing(_ data: Data, passphrase: Any? = passphrase) -> (OSStatus, [[String: Any]]?) {
        var options: [String: Any] = [:]
        if let passphrase { options[kSecImportExportPassphrase as String] = passphrase }
        var items: CFArray?
        let status = SecPKCS12Import(data as CFData, options as CFDictionary, &items)
        return (status, items as? [[String: Any]])
    }

    @Test(arguments: cases)
    func importsTheIdentityWithItsChain(kind: String, form: String) throws {
        let made = try made(kind)
        let (status, items) = importing(try #require(made.files[form]))
        #expect(status == errSecSuccess)
        let item = try #require(items?.first)
        #expect(items?.count == 1)

        let identity = try #require(item[kSecImportItemIdentity as String] as? SecIdentity)
        var certificate: SecCertificate?
        var privateKey: SecKey?
        #expect(SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess)
        #expect(SecIdentityCopyPrivateKey(identity, &privateKey) == errSecSuccess)
        let leaf = try #require(certificate)
        let key = try #require(privateKey)
        #expect(SecCertificateCopyData(leaf) as Data == made.leaf)

        // The chain, leaf first, is what openssl wrote; the trust holds it.
        let chain = try #require(item[kSecImportItemCertChain as String] as? [SecCertificate])
        #expect(chain.map { SecCertificateCopyData($0) as Data } == [made.leaf, made.ca])
        let trust = try #require(item[kSecImportItemTrust as String] as? SecTrust)
        #expect((SecTrustCopyCertificateChain(trust) as? [SecCertificate])?.count == 2)

        // The key is the certificate's: same public key, and a signature made with it verifies with the certificate's.
        let certificateKey = try #require(SecCertificateCopyKey(leaf))
        #expect(SecKeyCopyPublicKey(key) == certificateKey)
        let algorithm: SecKeyAlgorithm = kind == "rsa" ? .rsaSignatureMessagePKCS1v15SHA256 : .ecdsaSignatureMessageX962SHA256
        let message = Data("signed by the imported key".utf8)
        let signature = try #require(SecKeyCreateSignature(key, algorithm, message as CFData, nil))
        #expect(SecKeyVerifySignature(certificateKey, algorithm, message as CFData, signature, nil))

        // The label is the friendly name openssl wrote; the key ID is the key's application label (SHA-1 of the
        // public key), as macOS gives it.
        #expect(item[kSecImportItemLabel as String] as? String == Self.name)
        let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
        let keyID = try #require(item[kSecImportItemKeyID as String] as? Data)
        #expect(keyID == attributes[kSecAttrApplicationLabel as String] as? Data)
        #expect(keyID.count == 20)
    }

    @Test(arguments: ["default", "legacy", "tripleDES"])
    func wrongPassphraseIsAuthFailed(form: String) throws {
        let file = try #require(try made("p256").files[form])
        for passphrase: Any? in ["wrong", "", nil] {
            let (status, items) = importing(file, passphrase: passphrase)
            #expect(status == errSecAuthFailed)
            #expect(items == nil)
        }
    }

    @Test func changedFileIsAuthFailed() throws {
        var file = try #require(try made("rsa").files["default"])
        file[file.count / 2] ^= 0x01
        #expect(importing(file).0 == errSecAuthFailed)
    }

    @Test func garbageAndTruncatedFilesAreDecodeErrors() throws {
        let file = try #require(try made("rsa").files["legacy"])
        #expect(importing(Data()).0 == errSecDecode)
        #expect(importing(Data("-----BEGIN CERTIFICATE-----".utf8)).0 == errSecDecode)
        #expect(importing(try made("rsa").leaf).0 == errSecDecode)
        for length in [1, 16, file.count / 3, file.count - 1] {
            #expect(importing(file.prefix(length)).0 == errSecDecode, "\(length) bytes")
        }
    }

    @Test func aPassphraseThatIsNoStringIsAParameterError() throws {
        let file = try #require(try made("p256").files["default"])
        #expect(importing(file, passphrase: Data(Self.passphrase.utf8)).0 == errSecParam)
    }

    @Test func memoryOnlyIsAccepted() throws {
        let file = try #require(try made("p256").files["default"])
        let options: [String: Any] = [kSecImportExportPassphrase as String: Self.passphrase, kSecImportToMemoryOnly as String: true]
        var items: CFArray?
        #expect(SecPKCS12Import(file as CFData, options as CFDictionary, &items) == errSecSuccess)
        #expect((items as? [Any])?.count == 1)
    }
}
