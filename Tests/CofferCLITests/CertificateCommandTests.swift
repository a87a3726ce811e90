import Foundation
import Testing
import TestProcesses

/// A root, an intermediate and a leaf for `example.test` (with `admin@example.test`), made by openssl in a fixture's
/// scratch folder: `root.pem`, `root.der`, `intermediate.pem`, `leaf.pem`, and `chain.pem` (the leaf, then the
/// intermediate). Keys are P-256, without passphrases; certificates are valid for 30 days from now.
struct TestChain {
    let root: String
    let intermediate: String
    let leaf: String

    init(in fixture: KeyCLIFixture) throws {
        _ = try fixture.file("ca.ext", Data("basicConstraints=critical,CA:true\nkeyUsage=critical,keyCertSign,cRLSign\n".utf8))
        _ = try fixture.file(
            "leaf.ext",
            Data(
                "basicConstraints=critical,CA:false\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:example.test,email:admin@example.test\n"
                    .utf8))
        let steps: [[String]] = [
            [
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "root.key",
                "-subj", "/CN=Coffer Test Root", "-days", "30", "-addext", "basicConstraints=critical,CA:true",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign", "-out", "root.pem",
            ],
            ["openssl", "x509", "-in", "root.pem", "-outform", "DER", "-out", "root.der"],
            [
                "openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "intermediate.key",
                "-subj", "/CN=Coffer Test Intermediate", "-out", "intermediate.csr",
            ],
            [
                "openssl", "x509", "-req", "-in", "intermediate.csr", "-CA", "root.pem", "-CAkey", "root.key", "-set_serial", "2",
                "-days", "30", "-extfile", "ca.ext", "-out", "intermediate.pem",
            ],
            [
                "openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "leaf.key",
                "-subj", "/CN=example.test", "-out", "leaf.csr",
            ],
            [
                "openssl", "x509", "-req", "-in", "leaf.csr", "-CA", "intermediate.pem", "-CAkey", "intermediate.key", "-set_serial", "3",
                "-days", "30", "-extfile", "leaf.ext", "-out", "leaf.pem",
            ],
        ]
        for step in steps {
            let ran = try fixture.peer(step)
            guard ran.status == 0 else { throw CLIFailureInTest("\(step.joined(separator: " ")): \(ran.output)") }
        }
        func text(_ name: String) throws -> String {
            try String(contentsOf: fixture.scratch.appendingPathComponent(name), encoding: .utf8).replacingOccurrences(of: "\r\n", with: "\n")
        }
        root = try text("root.pem")
        intermediate = try text("intermediate.pem")
        leaf = try text("leaf.pem")
        _ = try fixture.file("chain.pem", Data((leaf + intermediate).utf8))
    }
}

/// A test set-up step that failed, with what the tool said.
struct CLIFailureInTest: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `import`, `find-certificate` and `verify-cert`, with openssl making the certificates and computing the
/// fingerprints they are checked against, on both transports.
@Suite("coffer certificate commands", .serialized, .timeLimit(.minutes(10)))
struct CertificateCommandTests {
    init() throws { try DebianPackages.ensureInstalled(["openssl"]) }

    @Test(arguments: CLITransport.allCases) func importingAddsEachCertificateOnceAndRefusesWhatIsNotOne(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        _ = try TestChain(in: fixture)
        let chain = fixture.scratch.appendingPathComponent("chain.pem").path
        let imported = try fixture.cli.run(["import", chain])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput == "imported certificate \"example.test\"\nimported certificate \"Coffer Test Intermediate\"\n")

        let again = try fixture.cli.run(["import", chain])
        #expect(again.status == 45)
        #expect(
            again.standardError
                == "coffer: import: errSecDuplicateItem (-25299): An item with the same primary key already exists; update it or delete it first.\n")

        let der = try fixture.cli.run(["import", fixture.scratch.appendingPathComponent("root.der").path, "-l", "My root"])
        #expect(der.status == 0, "\(der.standardError)")
        #expect(der.standardOutput == "imported certificate \"Coffer Test Root\"\n")
        let labelled = try fixture.cli.run(["find-certificate", "-c", "Root"])
        #expect(labelled.standardOutput.hasPrefix("class: \"cert\"\nattributes:\n"))
        #expect(labelled.standardOutput.contains("\"labl\"<blob>=\"My root\""))

        let garbage = try fixture.file("garbage.crt", Data("not a certificate at all\n".utf8))
        let refused = try fixture.cli.run(["import", garbage.path])
        #expect(refused.status == 1)
        #expect(refused.standardError == "coffer: import: \(garbage.path): not a certificate: neither PEM nor a DER X.509 certificate\n")
        let key = fixture.scratch.appendingPathComponent("leaf.key").path
        let keyOnly = try fixture.cli.run(["import", key])
        #expect(keyOnly.status == 1)
        #expect(keyOnly.standardError == "coffer: import: \(key): not a certificate: no CERTIFICATE block (found PRIVATE KEY)\n")

        // PKCS#12 is recognized by its name and by its content, and asks for its passphrase (IdentityCommandTests
        // import it).
        _ = try fixture.file("passphrase", Data("export passphrase\n".utf8))
        let exported = try fixture.peer([
            "openssl", "pkcs12", "-export", "-in", "leaf.pem", "-inkey", "leaf.key", "-passout", "file:passphrase", "-out", "leaf.p12",
        ])
        #expect(exported.status == 0, "\(exported.output)")
        let p12 = fixture.scratch.appendingPathComponent("leaf.p12")
        let disguised = fixture.scratch.appendingPathComponent("leaf.bin")
        try FileManager.default.copyItem(at: p12, to: disguised)
        for file in [p12.path, disguised.path] {
            let pkcs12 = try fixture.cli.run(["import", file])
            #expect(pkcs12.status == 1)
            #expect(pkcs12.standardError == "coffer: import: no passphrase for \(URL(fileURLWithPath: file).lastPathComponent) on standard input\n")
        }
    }

    @Test(arguments: CLITransport.allCases) func foundCertificatesPrintAsOpenSSLWritesThem(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        let chain = try TestChain(in: fixture)
        let missing = try fixture.cli.run(["find-certificate", "-c", "example"])
        #expect(missing.status == 44)
        #expect(missing.standardError == "coffer: find-certificate: errSecItemNotFound (-25300): No item matched the query.\n")
        #expect(try fixture.cli.run(["import", fixture.scratch.appendingPathComponent("chain.pem").path]).status == 0)

        let attributes = try fixture.cli.run(["find-certificate", "-c", "example"])
        #expect(attributes.status == 0, "\(attributes.standardError)")
        #expect(attributes.standardOutput.hasPrefix("class: \"cert\"\nattributes:\n"))
        #expect(attributes.standardOutput.contains("\"labl\"<blob>=\"example.test\""))
        #expect(!attributes.standardOutput.contains("Coffer Test Intermediate"))

        #expect(try fixture.cli.run(["find-certificate", "-c", "EXAMPLE.test", "-p"]).standardOutput == chain.leaf)
        #expect(try fixture.cli.run(["find-certificate", "-c", "Intermediate", "-p"]).standardOutput == chain.intermediate)
        #expect(try fixture.cli.run(["find-certificate", "-e", "admin@example.test", "-p"]).standardOutput == chain.leaf)
        // Matches come in the order they were added.
        #expect(try fixture.cli.run(["find-certificate", "-p"]).standardOutput == chain.leaf)
        #expect(try fixture.cli.run(["find-certificate", "-a", "-p"]).standardOutput == chain.leaf + chain.intermediate)
        let noEmail = try fixture.cli.run(["find-certificate", "-e", "nobody@example.test"])
        #expect(noEmail.status == 44)

        func fingerprint(_ digest: String) throws -> String {
            let printed = try fixture.peer(["openssl", "x509", "-in", "leaf.pem", "-noout", "-fingerprint", "-\(digest)"]).output
            return String(printed.split(separator: "=", maxSplits: 1)[1]).trimmingCharacters(in: .newlines).replacingOccurrences(of: ":", with: "")
        }
        let hashed = try fixture.cli.run(["find-certificate", "-c", "example", "-Z", "-p"])
        #expect(hashed.standardOutput == "SHA-256 hash: \(try fingerprint("sha256"))\nSHA-1 hash: \(try fingerprint("sha1"))\n" + chain.leaf)
    }

    @Test(arguments: CLITransport.allCases) func chainsVerifyForTheirHostAndDateOnly(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        _ = try TestChain(in: fixture)
        let chain = fixture.scratch.appendingPathComponent("chain.pem").path
        let root = fixture.scratch.appendingPathComponent("root.pem").path
        let trusted = try fixture.cli.run(["verify-cert", "-c", chain, "-r", root, "-s", "example.test"])
        #expect(trusted.status == 0, "\(trusted.standardError)")
        #expect(trusted.standardOutput == "...certificate verification successful.\n")
        let basic = try fixture.cli.run(["verify-cert", "-c", chain, "-r", fixture.scratch.appendingPathComponent("root.der").path])
        #expect(basic.status == 0, "\(basic.standardError)")

        let otherHost = try fixture.cli.run(["verify-cert", "-c", chain, "-r", root, "-s", "other.test"])
        #expect(otherHost.status == 1)
        #expect(otherHost.standardOutput.isEmpty)
        #expect(
            otherHost.standardError
                == "coffer: verify-cert: Cert Verify Result: errSecHostNameMismatch (-67602): “example.test” (certificate 0 of the chain) has no subject alternative name matching the SSL policy's host name\n"
        )

        let expired = try fixture.cli.run(["verify-cert", "-c", chain, "-r", root, "-s", "example.test", "--date", "2040-01-01T00:00:00Z"])
        #expect(expired.status == 1)
        #expect(expired.standardError.hasPrefix("coffer: verify-cert: Cert Verify Result: errSecCertificateExpired (-67818): "))

        // Without -r only the system's roots are trusted, and this chain's root is not one of them.
        let untrusted = try fixture.cli.run(["verify-cert", "-c", chain])
        #expect(untrusted.status == 1)
        #expect(untrusted.standardError.hasPrefix("coffer: verify-cert: Cert Verify Result: errSecCreateChainFailed (-25318): "))
        let badDate = try fixture.cli.run(["verify-cert", "-c", chain, "--date", "tomorrow"])
        #expect(badDate.status == 64)
        #expect(badDate.standardError.contains("--date takes an ISO 8601 date: tomorrow"))
    }
}
