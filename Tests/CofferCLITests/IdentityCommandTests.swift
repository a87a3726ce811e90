import Foundation
import Testing
import TestProcesses

/// `import` of PKCS#12 files, `find-identity` and `export`, with openssl making the files and checking what comes
/// out, on both transports.
@Suite("coffer identity commands", .serialized, .timeLimit(.minutes(10)))
struct IdentityCommandTests {
    init() throws { try DebianPackages.ensureInstalled(["openssl"]) }

    private static let passphrase = "export passphrase"

    /// The test chain, and `leaf.p12`: the leaf with its key and the intermediate, under ``passphrase`` (openssl's
    /// defaults: PBES2 with AES-256-CBC and PBKDF2).
    private static func chainWithPKCS12(_ fixture: KeyCLIFixture) throws -> TestChain {
        let chain = try TestChain(in: fixture)
        _ = try fixture.file("passphrase", Data("\(passphrase)\n".utf8))
        let exported = try fixture.peer([
            "openssl", "pkcs12", "-export", "-in", "leaf.pem", "-inkey", "leaf.key", "-certfile", "intermediate.pem",
            "-passout", "file:passphrase", "-out", "leaf.p12",
        ])
        guard exported.status == 0 else { throw CLIFailureInTest("openssl pkcs12: \(exported.output)") }
        return chain
    }

    /// The SHA-1 fingerprint of `name`.pem as `security find-identity` prints it (openssl's, without colons).
    private static func sha1(_ fixture: KeyCLIFixture, _ name: String) throws -> String {
        let printed = try fixture.peer(["openssl", "x509", "-in", "\(name).pem", "-noout", "-fingerprint", "-sha1"]).output
        return String(printed.split(separator: "=", maxSplits: 1)[1]).trimmingCharacters(in: .newlines).replacingOccurrences(of: ":", with: "")
    }

    @Test(arguments: CLITransport.allCases) func pkcs12ImportAddsTheIdentityAndItsChainOnlyWithItsPassphrase(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        let chain = try Self.chainWithPKCS12(fixture)
        let p12 = fixture.scratch.appendingPathComponent("leaf.p12").path

        let noPassphrase = try fixture.cli.run(["import", p12])
        #expect(noPassphrase.status == 1)
        #expect(noPassphrase.standardError == "coffer: import: no passphrase for leaf.p12 on standard input\n")
        let wrong = try fixture.cli.run(["import", p12], input: "not the passphrase\n")
        #expect(wrong.status == 51)  // errSecAuthFailed (-25293) truncated to 8 bits, as security's exit codes are
        #expect(wrong.standardOutput.isEmpty)
        #expect(
            wrong.standardError
                == "coffer: import: \(p12): the passphrase is wrong, or the file was altered (errSecAuthFailed, -25293); nothing was imported\n")
        #expect(try fixture.cli.run(["find-certificate", "-a"]).status == 44)

        let imported = try fixture.cli.run(["import", p12], input: "\(Self.passphrase)\n")
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput == "imported identity \"example.test\"\nimported certificate \"Coffer Test Intermediate\"\n")
        #expect(try fixture.cli.run(["find-certificate", "-a", "-p"]).standardOutput == chain.leaf + chain.intermediate)
        let keys = try fixture.cli.run(["find-key", "--class", "private"])
        #expect(keys.standardOutput.components(separatedBy: "class: \"keys\"").count - 1 == 1)

        let again = try fixture.cli.run(["import", p12], input: "\(Self.passphrase)\n")
        #expect(again.status == 45)
        #expect(
            again.standardError
                == "coffer: import: errSecDuplicateItem (-25299): An item with the same primary key already exists; update it or delete it first.\n")

        // Recognized by its content too, whatever its name.
        let disguised = fixture.scratch.appendingPathComponent("leaf.bin")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: p12), to: disguised)
        let byContent = try fixture.cli.run(["import", disguised.path], input: "wrong\n")
        #expect(byContent.status == 51)
        #expect(byContent.standardError.hasPrefix("coffer: import: \(disguised.path): the passphrase is wrong"))
    }

    @Test(arguments: CLITransport.allCases) func findIdentityListsIdentitiesAsSecurityDoes(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        _ = try Self.chainWithPKCS12(fixture)
        let root = fixture.scratch.appendingPathComponent("root.pem").path
        let none = try fixture.cli.run(["find-identity"])
        #expect(none.status == 0)
        #expect(
            none.standardOutput
                == "\nPolicy: X.509 Basic\n  Matching identities\n     0 identities found\n\n  Valid identities only\n     0 valid identities found\n")

        // A certificate without its key is no identity.
        #expect(try fixture.cli.run(["import", root]).status == 0)
        #expect(try fixture.cli.run(["find-identity", "-v"]).standardOutput == "     0 valid identities found\n")
        #expect(try fixture.cli.run(["import", fixture.scratch.appendingPathComponent("leaf.p12").path], input: "\(Self.passphrase)\n").status == 0)
        let hash = try Self.sha1(fixture, "leaf")

        // The chain's root is not one of the system's roots.
        let basic = try fixture.cli.run(["find-identity"])
        #expect(basic.status == 0, "\(basic.standardError)")
        #expect(
            basic.standardOutput
                == "\nPolicy: X.509 Basic\n  Matching identities\n  1) \(hash) \"example.test\" (CSSMERR_TP_NOT_TRUSTED)\n     1 identities found\n\n  Valid identities only\n     0 valid identities found\n"
        )
        #expect(try fixture.cli.run(["find-identity", "-v"]).standardOutput == "     0 valid identities found\n")

        // Trusting the root (the intermediate is found among the keychain's certificates).
        let valid = try fixture.cli.run(["find-identity", "-v", "-r", root])
        #expect(valid.standardOutput == "  1) \(hash) \"example.test\"\n     1 valid identities found\n")
        // The leaf is for servers only (extendedKeyUsage=serverAuth); policies print in security's order.
        let ssl = try fixture.cli.run(["find-identity", "-p", "ssl-server", "-p", "ssl-client", "-r", root])
        #expect(
            ssl.standardOutput
                == "\nPolicy: SSL (client)\n  Matching identities\n  1) \(hash) \"example.test\" (CSSMERR_APPLETP_INVALID_EXTENDED_KEY_USAGE)\n     1 identities found\n\n  Valid identities only\n     0 valid identities found\n"
                + "\nPolicy: SSL (server)\n  Matching identities\n  1) \(hash) \"example.test\"\n     1 identities found\n\n  Valid identities only\n  1) \(hash) \"example.test\"\n     1 valid identities found\n"
        )

        let named = try fixture.cli.run(["find-identity", "-v", "-s", "EXAMPLE", "-r", root])
        #expect(named.standardOutput == "Looking for identities matching \"EXAMPLE\"\n  1) \(hash) \"example.test\"\n     1 valid identities found\n")
        let other = try fixture.cli.run(["find-identity", "-v", "-s", "nothing"])
        #expect(other.standardOutput == "Looking for identities matching \"nothing\"\n     0 valid identities found\n")
        let badPolicy = try fixture.cli.run(["find-identity", "-p", "smime"])
        #expect(badPolicy.status == 64)
        #expect(badPolicy.standardError.contains("The value 'smime' is invalid for '-p <policy>'"))
    }

    @Test(arguments: CLITransport.allCases) func exportWritesCertificatesAndOnlyKeysThatMayLeave(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        let chain = try Self.chainWithPKCS12(fixture)
        #expect(try fixture.cli.run(["import", fixture.scratch.appendingPathComponent("leaf.p12").path], input: "\(Self.passphrase)\n").status == 0)

        #expect(try fixture.cli.run(["export"]).standardOutput == chain.leaf)
        #expect(try fixture.cli.run(["export", "-c", "intermediate"]).standardOutput == chain.intermediate)
        #expect(try fixture.cli.run(["export", "-a", "--format", "pem"]).standardOutput == chain.leaf + chain.intermediate)
        #expect(try fixture.peer(["openssl", "x509", "-in", "leaf.pem", "-outform", "DER", "-out", "leaf.der"]).status == 0)
        let der = try fixture.cli.run(["export", "-c", "example", "--format", "der"])
        #expect(der.standardOutputBytes == (try Data(contentsOf: fixture.scratch.appendingPathComponent("leaf.der"))))
        let twoInDER = try fixture.cli.run(["export", "-a", "-f", "der"])
        #expect(twoInDER.status == 1)
        #expect(twoInDER.standardError == "coffer: export: --format der holds one certificate and 2 match; choose one with -c NAME, or write PEM\n")
        let missing = try fixture.cli.run(["export", "-c", "nothing"])
        #expect(missing.status == 44)
        #expect(missing.standardError == "coffer: export: errSecItemNotFound (-25300): No item matched the query.\n")

        // -o: a new file, mode 0600, never replaced without --force, never written through a link.
        let output = fixture.scratch.appendingPathComponent("exported.pem")
        #expect(try fixture.cli.run(["export", "-o", output.path]).status == 0)
        #expect(try String(contentsOf: output, encoding: .utf8) == chain.leaf)
        #expect(try FileManager.default.attributesOfItem(atPath: output.path)[.posixPermissions] as? Int == 0o600)
        let existing = try fixture.cli.run(["export", "-c", "intermediate", "-o", output.path])
        #expect(existing.status == 1)
        #expect(existing.standardError == "coffer: export: \(output.path) already exists; nothing was written (use --force to replace it)\n")
        #expect(try String(contentsOf: output, encoding: .utf8) == chain.leaf)
        #expect(try fixture.cli.run(["export", "-c", "intermediate", "-o", output.path, "--force"]).status == 0)
        #expect(try String(contentsOf: output, encoding: .utf8) == chain.intermediate)
        let link = fixture.scratch.appendingPathComponent("link.pem")
        let target = fixture.scratch.appendingPathComponent("target.pem")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let throughLink = try fixture.cli.run(["export", "-o", link.path])
        #expect(throughLink.status == 1)
        #expect(!FileManager.default.fileExists(atPath: target.path))

        // The identity's key is a software key from the file: extractable, written as openssl writes PKCS#8.
        let key = try fixture.cli.run(["export", "--private-key", "-c", "example"])
        #expect(key.status == 0, "\(key.standardError)")
        let expected = try fixture.peer(["openssl", "pkey", "-in", "leaf.key"])
        #expect(key.standardOutput == expected.output)
        let keyFile = fixture.scratch.appendingPathComponent("key.pem")
        #expect(try fixture.cli.run(["export", "--private-key", "-o", keyFile.path]).status == 0)
        #expect(try String(contentsOf: keyFile, encoding: .utf8) == expected.output)
        #expect(try FileManager.default.attributesOfItem(atPath: keyFile.path)[.posixPermissions] as? Int == 0o600)

        // Keys of the keychain's own (RSA, EC P-521), named by their tag, read back as the same keys.
        for (tag, arguments) in [("rsa", ["-t", "rsa"]), ("p521", ["-s", "521"])] {
            #expect(try fixture.cli.run(["create-key", "--tag", tag] + arguments).status == 0)
            let exported = try fixture.cli.run(["export", "--private-key", "--tag", tag])
            #expect(exported.standardOutput.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
            _ = try fixture.file("\(tag).pem", exported.standardOutputBytes)
            let derived = try fixture.peer(["openssl", "pkey", "-in", "\(tag).pem", "-pubout"])
            #expect(derived.output == (try fixture.cli.run(["export-public-key", "--tag", tag])).standardOutput)
        }

        // A key made inside the keychain never leaves it.
        #expect(try fixture.cli.run(["create-key", "--enclave", "--tag", "enclave"]).status == 0)
        let enclave = try fixture.cli.run(["export", "--private-key", "--tag", "enclave"])
        #expect(enclave.status == 1)
        #expect(enclave.standardOutput.isEmpty)
        #expect(
            enclave.standardError
                == "coffer: export: the private key “enclave” never leaves the keychain (it was made inside it, as a Secure Enclave key is); it cannot be exported\n"
        )
        let noIdentity = try fixture.cli.run(["export", "--private-key", "-c", "nothing"])
        #expect(noIdentity.status == 44)
        #expect(noIdentity.standardError == "coffer: export: errSecItemNotFound (-25300): no identity (a certificate with its private key) matches “nothing”\n")
        let derKey = try fixture.cli.run(["export", "--private-key", "--format", "der"])
        #expect(derKey.status == 64)
        #expect(derKey.standardError.contains("--private-key writes PKCS#8 PEM only; leave out --format der"))
        let tagWithoutFlag = try fixture.cli.run(["export", "--tag", "rsa"])
        #expect(tagWithoutFlag.status == 64)
        #expect(tagWithoutFlag.standardError.contains("--tag, -l and --application-label name a private key; add --private-key to export it"))
    }
}
