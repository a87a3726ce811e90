import CofferTestSupport
import Foundation
import KeyCrypto
import Security
import TestProcesses
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `SecCertificate` (reference §7.3) against certificates the `openssl` command makes at test time: a root
/// RSA-2048, an intermediate P-256 with a multi-valued RDN, a P-384 leaf with e-mail addresses in its subject and
/// its subject alternative name, certificates without a common name, and Ed448 and secp256k1 certificates, which
/// swift-certificates refuses.
@Suite(.timeLimit(.minutes(10))) struct SecCertificateTests {
    private func certificate(_ der: Data) throws -> SecCertificate {
        try #require(SecCertificateCreateWithData(nil, der as CFData))
    }

    private func commonName(_ certificate: SecCertificate) -> (OSStatus, String?) {
        var name: CFString?
        let status = SecCertificateCopyCommonName(certificate, &name)
        return (status, name as String?)
    }

    private func emails(_ certificate: SecCertificate) -> (OSStatus, [String]?) {
        var addresses: CFArray?
        let status = SecCertificateCopyEmailAddresses(certificate, &addresses)
        return (status, addresses as? [String])
    }

    private func externalRepresentation(_ key: SecKey) -> Data? {
        SecKeyCopyExternalRepresentation(key, nil) as Data?
    }

    @Test func rootRSACertificateRoundTripsAndHasItsKeyAndDates() throws {
        let made = try OpenSSLCertificates.shared()
        let root = try certificate(made.root.der)
        #expect(SecCertificateCopyData(root) as Data == made.root.der)
        #expect(SecCertificateCopySerialNumberData(root, nil) as Data? == Data([0x01]))
        #expect(commonName(root) == (errSecSuccess, "Coffer Root CA"))
        #expect(SecCertificateCopySubjectSummary(root) as String? == "Coffer Root CA")
        #expect(emails(root) == (errSecSuccess, []))
        let subject = try #require(SecCertificateCopyNormalizedSubjectSequence(root) as Data?)
        #expect(SecCertificateCopyNormalizedIssuerSequence(root) as Data? == subject)
        // C=US, O=Coffer Test, CN=Coffer Root CA, all PrintableString: only the case changes.
        let expected = DERBytes.name([
            [(DERBytes.country, 0x13, "US")], [(DERBytes.organization, 0x13, "COFFER TEST")],
            [(DERBytes.commonName, 0x13, "COFFER ROOT CA")],
        ])
        #expect(subject == expected)

        let key = try #require(SecCertificateCopyKey(root))
        let pkcs1 = try #require(externalRepresentation(key))
        #expect(pkcs1 == made.root.pkcs1PublicKey)
        let fromOpenSSL = try AsymmetricKey(externalRepresentation: made.root.subjectPublicKeyInfo, type: .rsa, keyClass: .publicKey)
        #expect(fromOpenSSL.externalRepresentation() == pkcs1)
        #expect(key.description == "<SecKeyRef algorithm id: 1, key type: RSAPublicKey, block size: 2048 bits>")

        #expect(SecCertificateCopyNotValidBeforeDate(root) as Date? == made.root.notBefore)
        #expect(SecCertificateCopyNotValidAfterDate(root) as Date? == made.root.notAfter)
        #expect(made.root.notAfter.timeIntervalSince(made.root.notBefore) == 3_650 * 86_400)
    }

    @Test func intermediateP256WithAMultiValuedRDN() throws {
        let made = try OpenSSLCertificates.shared()
        let root = try certificate(made.root.der)
        let intermediate = try certificate(made.intermediate.der)
        #expect(SecCertificateCopyData(intermediate) as Data == made.intermediate.der)
        #expect(SecCertificateCopySerialNumberData(intermediate, nil) as Data? == Data([0x02]))
        #expect(commonName(intermediate) == (errSecSuccess, "Coffer Intermediate"))
        #expect(SecCertificateCopySubjectSummary(intermediate) as String? == "Coffer Intermediate")
        #expect(SecCertificateCopyNormalizedIssuerSequence(intermediate) as Data? == SecCertificateCopyNormalizedSubjectSequence(root) as Data?)
        // O=Coffer Test, then one RDN holding OU=Unit and CN=Coffer Intermediate (DER orders the SET: OU first).
        let expected = DERBytes.name([
            [(DERBytes.organization, 0x13, "COFFER TEST")],
            [(DERBytes.organizationalUnit, 0x13, "UNIT"), (DERBytes.commonName, 0x13, "COFFER INTERMEDIATE")],
        ])
        #expect(SecCertificateCopyNormalizedSubjectSequence(intermediate) as Data? == expected)

        let key = try #require(SecCertificateCopyKey(intermediate))
        let point = try #require(externalRepresentation(key))
        #expect(point.count == 65 && point == made.intermediate.subjectPublicKeyInfo.suffix(65))
        let fromOpenSSL = try AsymmetricKey(
            externalRepresentation: made.intermediate.subjectPublicKeyInfo.suffix(65), type: .ellipticCurve, keyClass: .publicKey)
        #expect(fromOpenSSL.externalRepresentation() == point)
    }

    @Test func leafP384WithItsSerialNamesAndEmailAddresses() throws {
        let made = try OpenSSLCertificates.shared()
        let intermediate = try certificate(made.intermediate.der)
        let leaf = try certificate(made.leaf.der)
        #expect(SecCertificateCopyData(leaf) as Data == made.leaf.der)
        #expect(SecCertificateCopySerialNumberData(leaf, nil) as Data? == Data([0x00, 0xF1, 0xE2, 0xD3, 0xC4, 0xB5, 0xA6, 0x97, 0x88]))
        // Two common names: Apple's CopyCommonName gives the last, the summary lists both, the last first.
        #expect(commonName(leaf) == (errSecSuccess, "Coffer Leaf"))
        #expect(SecCertificateCopySubjectSummary(leaf) as String? == "Coffer Leaf, Coffer Leaf Alt")
        // The subject alternative name's rfc822Names in their order, then the subject's emailAddress.
        #expect(emails(leaf) == (errSecSuccess, ["first@example.com", "second@example.com", "leaf@example.com"]))
        #expect(SecCertificateCopyNormalizedIssuerSequence(leaf) as Data? == SecCertificateCopyNormalizedSubjectSequence(intermediate) as Data?)

        let key = try #require(SecCertificateCopyKey(leaf))
        let point = try #require(externalRepresentation(key))
        #expect(point.count == 97 && point == made.leaf.subjectPublicKeyInfo.suffix(97))
        let fromOpenSSL = try AsymmetricKey(
            externalRepresentation: made.leaf.subjectPublicKeyInfo.suffix(97), type: .ellipticCurve, keyClass: .publicKey)
        #expect(fromOpenSSL.externalRepresentation() == point)
        #expect(SecKeyCopyAttributes(key).flatMap { ($0 as? [String: Any])?[kSecAttrKeySizeInBits as String] as? Int } == 384)

        let description = leaf.description
        #expect(description.hasPrefix("<cert(0x"))
        #expect(description.hasSuffix(") s: Coffer Leaf, Coffer Leaf Alt i: Coffer Intermediate>"))
    }

    @Test func certificatesWithoutACommonName() throws {
        let made = try OpenSSLCertificates.shared()
        let units = try certificate(made.organizationalUnitsOnly.der)
        var untouched: CFString? = "unchanged" as CFString
        #expect(SecCertificateCopyCommonName(units, &untouched) == errSecInternal)
        #expect(untouched as String? == "unchanged")
        // No CN, no e-mail, no DNS name: the organizational units, the last first.
        #expect(SecCertificateCopySubjectSummary(units) as String? == "Team A, Team B")
        #expect(emails(units) == (errSecSuccess, []))

        let mail = try certificate(made.mailOnly.der)
        #expect(commonName(mail).0 == errSecInternal)
        // The first e-mail address (the subject alternative name's first) replaces the organization.
        #expect(SecCertificateCopySubjectSummary(mail) as String? == "san@example.com")
        #expect(emails(mail) == (errSecSuccess, ["san@example.com", "person@example.com"]))

        let host = try certificate(made.dnsOnly.der)
        #expect(SecCertificateCopySubjectSummary(host) as String? == "host.example.com")
    }

    @Test func normalizationFoldsPrintableStringsOnly() throws {
        let made = try OpenSSLCertificates.shared()
        let mixed = try certificate(made.mixedCase.der)
        // CN=  Mixed Case  Name , O=Org in PrintableString: upper case, blanks trimmed and collapsed, lengths
        // re-encoded (contents: the value 19 → 15 bytes, its ATV 26 → 22, its RDN 28 → 24, the name 44 → 40).
        let expected = Data(
            hex: "3028" + "3118" + "3016" + "0603550403" + "130F" + "4D49584544204341534520" + "4E414D45"
                + "310C" + "300A" + "060355040A" + "1303" + "4F5247")
        #expect(SecCertificateCopyNormalizedSubjectSequence(mixed) as Data? == expected)
        #expect(SecCertificateCopyNormalizedIssuerSequence(mixed) as Data? == expected)
        #expect(commonName(mixed) == (errSecSuccess, "  Mixed Case  Name "))

        // The same kind of name in UTF8String is left as it is.
        let utf8 = try certificate(made.utf8Name.der)
        let kept = Data(hex: "3018" + "3116" + "3014" + "0603550403" + "0C0D" + "20204B656570202043617365" + "20")
        #expect(SecCertificateCopyNormalizedSubjectSequence(utf8) as Data? == kept)
        #expect(SecCertificateCopySubjectSummary(utf8) as String? == "  Keep  Case ")
    }

    @Test func keysSwiftCertificatesRefusesStillMakeCertificatesButNoKey() throws {
        let made = try OpenSSLCertificates.shared()
        for (made, name) in [(made.ed448, "Ed448 Test"), (made.secp256k1, "secp256k1 Test")] {
            let certificate = try certificate(made.der)
            #expect(SecCertificateCopyData(certificate) as Data == made.der)
            #expect(SecCertificateCopySerialNumberData(certificate, nil) as Data? == Data([0x30, 0x39]))
            #expect(commonName(certificate) == (errSecSuccess, name))
            #expect(SecCertificateCopySubjectSummary(certificate) as String? == name)
            #expect(SecCertificateCopyNotValidBeforeDate(certificate) as Date? == made.notBefore)
            #expect(SecCertificateCopyKey(certificate) == nil)
        }
    }

    @Test func bytesThatAreNoCertificateGiveNil() throws {
        let made = try OpenSSLCertificates.shared()
        let der = made.leaf.der
        #expect(SecCertificateCreateWithData(nil, Data() as CFData) == nil)
        #expect(SecCertificateCreateWithData(nil, Data("not a certificate".utf8) as CFData) == nil)
        #expect(SecCertificateCreateWithData(nil, made.leaf.pem as CFData) == nil)
        #expect(SecCertificateCreateWithData(nil, der.dropLast() as CFData) == nil)
        #expect(SecCertificateCreateWithData(nil, der.prefix(der.count / 2) as CFData) == nil)
        #expect(SecCertificateCreateWithData(nil, Data([0x30, 0x03, 0x02, 0x01, 0x01]) as CFData) == nil)
        var corrupted = der
        corrupted[1] ^= 0x01  // the outer length no longer matches
        #expect(SecCertificateCreateWithData(nil, corrupted as CFData) == nil)
        // As Apple's: bytes after the certificate are ignored, and not returned by CopyData.
        let trailing = try certificate(der + Data([0x00, 0x01, 0x02]))
        #expect(SecCertificateCopyData(trailing) as Data == der)
    }

    @Test func certificatesAreEqualAndHashByTheirBytes() throws {
        let made = try OpenSSLCertificates.shared()
        let first = try certificate(made.leaf.der)
        let second = try certificate(Data(made.leaf.der))
        let other = try certificate(made.root.der)
        #expect(first == second && first.hashValue == second.hashValue)
        #expect(first != other)
        #expect(Set([first, second, other]).count == 2)
        #expect(CFGetTypeID(first) == SecCertificateGetTypeID())
        #expect(SecCertificateGetTypeID() != SecKeyGetTypeID())
        #expect(SecCertificateGetTypeID() != CFDataGetTypeID())
        let key = try #require(SecCertificateCopyKey(first))
        #expect(CFGetTypeID(key) == SecKeyGetTypeID())
    }
}

/// DER of names, spelt out by hand for the expected values.
enum DERBytes {
    static let country: [UInt8] = [0x55, 0x04, 0x06]
    static let organization: [UInt8] = [0x55, 0x04, 0x0A]
    static let organizationalUnit: [UInt8] = [0x55, 0x04, 0x0B]
    static let commonName: [UInt8] = [0x55, 0x04, 0x03]

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        precondition(content.count < 0x80)
        return [tag, UInt8(content.count)] + content
    }

    /// A `Name`: RDNs of (type, string tag, text) in the given order.
    static func name(_ rdns: [[(type: [UInt8], tag: UInt8, text: String)]]) -> Data {
        let content = rdns.flatMap { rdn in
            tlv(0x31, rdn.flatMap { tlv(0x30, tlv(0x06, $0.type) + tlv($0.tag, Array($0.text.utf8))) })
        }
        return Data(tlv(0x30, content))
    }
}

/// Certificates made once per test process by the `openssl` command (installed when missing), in a 0700 folder
/// removed afterwards.
struct OpenSSLCertificates: Sendable {
    struct Made: Sendable {
        let der: Data
        let pem: Data
        /// `openssl x509 -pubkey`, as DER.
        let subjectPublicKeyInfo: Data
        let notBefore: Date
        let notAfter: Date
        /// For RSA keys: `openssl rsa -pubin -RSAPublicKey_out`, as DER.
        let pkcs1PublicKey: Data?
    }

    let root, intermediate, leaf, organizationalUnitsOnly, mailOnly, dnsOnly, mixedCase, utf8Name, ed448, secp256k1: Made

    private static let made: Result<OpenSSLCertificates, Failure> = Result { try make() }.mapError { Failure(description: "\($0)") }

    static func shared() throws -> OpenSSLCertificates { try made.get() }

    typealias Failure = OpenSSLWorkspace.Failure

    private static func make() throws -> OpenSSLCertificates {
        let workspace = try OpenSSLWorkspace()
        defer { workspace.remove() }
        func path(_ name: String) -> String { workspace.path(name) }
        func inFolder(_ argument: String) -> String { workspace.inFolder(argument) }
        func openssl(_ arguments: String...) throws -> Data { try workspace.openssl(arguments) }
        func write(_ name: String, _ text: String) throws { try workspace.write(name, text) }
        // PrintableString where the text allows it (the default configuration asks for UTF8String everywhere).
        try write("printable.cnf", "[req]\ndistinguished_name = dn\nstring_mask = default\n[dn]\n")
        try write("utf8.cnf", "[req]\ndistinguished_name = dn\nstring_mask = utf8only\n[dn]\n")
        try write(
            "extensions.cnf",
            """
            [ca]
            basicConstraints = critical, CA:true
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            [leaf]
            basicConstraints = CA:false
            subjectAltName = email:first@example.com, DNS:leaf.example.com, email:second@example.com
            [mail]
            subjectAltName = email:san@example.com
            [host]
            subjectAltName = DNS:host.example.com

            """)

        func read(_ name: String, rsa: Bool = false) throws -> Made {
            _ = try openssl("x509", "-in", "@\(name).pem", "-outform", "DER", "-out", "@\(name).der")
            let pem = try Data(contentsOf: URL(fileURLWithPath: path("\(name).pem")))
            _ = try openssl("x509", "-in", "@\(name).pem", "-noout", "-pubkey", "-out", "@\(name).pub")
            _ = try openssl("pkey", "-pubin", "-in", "@\(name).pub", "-outform", "DER", "-out", "@\(name).spki")
            var pkcs1: Data?
            if rsa {
                _ = try openssl("rsa", "-pubin", "-in", "@\(name).pub", "-RSAPublicKey_out", "-outform", "DER", "-out", "@\(name).pkcs1")
                pkcs1 = try Data(contentsOf: URL(fileURLWithPath: path("\(name).pkcs1")))
            }
            let dates = String(decoding: try openssl("x509", "-in", "@\(name).pem", "-noout", "-startdate", "-enddate"), as: UTF8.self)
            return Made(
                der: try Data(contentsOf: URL(fileURLWithPath: path("\(name).der"))), pem: pem,
                subjectPublicKeyInfo: try Data(contentsOf: URL(fileURLWithPath: path("\(name).spki"))),
                notBefore: try date(dates, "notBefore"), notAfter: try date(dates, "notAfter"), pkcs1PublicKey: pkcs1)
        }
        /// A self-signed certificate with a new key made by `-newkey` options.
        func selfSigned(_ name: String, _ newKey: [String], subject: String, config: String = "@printable.cnf") throws -> Made {
            let arguments =
                [
                    "req", "-x509", "-config", config, "-nodes", "-keyout", "@\(name).key", "-subj", subject, "-days", "30",
                    "-set_serial", "12345", "-out", "@\(name).pem",
                ] + newKey
            let outcome = try ChildProcess.run(["/usr/bin/openssl"] + arguments.map(inFolder))
            guard outcome.status == 0 else { throw Failure(description: "openssl req \(name): \(outcome.errorText)") }
            return try read(name)
        }
        /// A certificate for a new key (`genpkey` options) signed by `issuer`.
        func issued(
            _ name: String, _ genpkey: [String], subject: String, by issuer: String, serial: String, days: Int,
            extensions: String, multivalue: Bool = false
        ) throws -> Made {
            let tool = { (arguments: [String]) throws -> Void in
                let outcome = try ChildProcess.run(["/usr/bin/openssl"] + arguments.map(inFolder))
                guard outcome.status == 0 else { throw Failure(description: "openssl \(arguments.first ?? "") \(name): \(outcome.errorText)") }
            }
            try tool(["genpkey"] + genpkey + ["-out", "@\(name).key"])
            try tool(
                ["req", "-new", "-config", "@printable.cnf", "-key", "@\(name).key", "-subj", subject, "-out", "@\(name).csr"]
                    + (multivalue ? ["-multivalue-rdn"] : []))
            try tool([
                "x509", "-req", "-in", "@\(name).csr", "-CA", "@\(issuer).pem", "-CAkey", "@\(issuer).key", "-set_serial", serial,
                "-days", String(days), "-sha256", "-extfile", "@extensions.cnf", "-extensions", extensions, "-out", "@\(name).pem",
            ])
            return try read(name)
        }

        _ = try openssl(
            "req", "-x509", "-config", "@printable.cnf", "-newkey", "rsa:2048", "-nodes", "-keyout", "@root.key",
            "-subj", "/C=US/O=Coffer Test/CN=Coffer Root CA", "-days", "3650", "-set_serial", "1", "-sha256",
            "-addext", "basicConstraints=critical,CA:true", "-addext", "keyUsage=critical,keyCertSign,cRLSign", "-out", "@root.pem")
        let root = try read("root", rsa: true)
        let intermediate = try issued(
            "intermediate", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"],
            subject: "/O=Coffer Test/OU=Unit+CN=Coffer Intermediate", by: "root", serial: "2", days: 1825, extensions: "ca", multivalue: true)
        let leaf = try issued(
            "leaf", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"],
            subject: "/C=US/O=Coffer Test/CN=Coffer Leaf Alt/CN=Coffer Leaf/emailAddress=leaf@example.com", by: "intermediate",
            serial: "0xF1E2D3C4B5A69788", days: 365, extensions: "leaf")
        let units = try issued(
            "units", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], subject: "/C=US/O=Org Only/OU=Team B/OU=Team A",
            by: "intermediate", serial: "3", days: 30, extensions: "ca")
        let mail = try issued(
            "mail", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], subject: "/O=Mail Org/emailAddress=person@example.com",
            by: "intermediate", serial: "4", days: 30, extensions: "mail")
        let host = try issued(
            "host", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], subject: "/C=US/O=Host Org", by: "intermediate",
            serial: "5", days: 30, extensions: "host")
        let p256 = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
        return OpenSSLCertificates(
            root: root, intermediate: intermediate, leaf: leaf, organizationalUnitsOnly: units, mailOnly: mail, dnsOnly: host,
            mixedCase: try selfSigned("mixed", p256, subject: "/CN=  Mixed Case  Name /O=Org"),
            utf8Name: try selfSigned("utf8", p256, subject: "/CN=  Keep  Case ", config: "@utf8.cnf"),
            ed448: try selfSigned("ed448", ["-newkey", "ed448"], subject: "/CN=Ed448 Test"),
            secp256k1: try selfSigned("k1", ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:secp256k1", "-sha256"], subject: "/CN=secp256k1 Test"))
    }

    /// `notBefore=Nov  6 07:18:34 2026 GMT` in openssl's output, as a date.
    private static func date(_ output: String, _ field: String) throws -> Date {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(field + "=") }) else {
            throw Failure(description: "no \(field) in \(output)")
        }
        let text = line.dropFirst(field.count + 1).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "MMM d HH:mm:ss yyyy 'GMT'"
        guard let date = formatter.date(from: text) else { throw Failure(description: "cannot read \(text)") }
        return date
    }
}
