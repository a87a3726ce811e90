import Foundation
import Testing
import TestProcesses

/// Where a key command's keychain is: the embedded keychain, or a per-user `cofferd` the commands reach by
/// `COFFER_SOCKET`.
enum CLITransport: String, CaseIterable, CustomTestStringConvertible {
    case embedded, daemon
    var testDescription: String { rawValue }
}

/// A `coffer` runner on a fresh keychain of `transport`, with a scratch folder for files the peers read.
final class KeyCLIFixture {
    let scratch: URL
    private(set) var cli = CLIRunner()
    private var daemon: ChildProcess?

    init(_ transport: CLITransport) throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        guard transport == .daemon else { return }
        let socket = scratch.appendingPathComponent("socket").path
        let cofferd = CLIRunner.executable.deletingLastPathComponent().appendingPathComponent("cofferd").path
        daemon = try ChildProcess(
            [cofferd, "--user", "--socket", socket], environment: ["COFFER_HOME": cli.home.path, "PATH": "/usr/bin:/bin"],
            output: .null, errors: .null)
        for _ in 0..<1500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        cli.socket = socket
    }

    deinit {
        _ = daemon?.terminate()
        try? FileManager.default.removeItem(at: scratch)
        try? FileManager.default.removeItem(at: cli.home.deletingLastPathComponent())
    }

    /// A file in the scratch folder holding `data`.
    func file(_ name: String, _ data: Data) throws -> URL {
        let url = scratch.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    /// Runs `command` (a peer: openssl, ssh-keygen) in the scratch folder.
    func peer(_ command: [String]) throws -> (status: Int32, output: String) {
        let child = try ChildProcess(["/usr/bin/env", "-C", scratch.path] + command, input: .null)
        let finished = try child.finish()
        return (finished.status, finished.outputText + finished.errorText)
    }
}

/// `create-key`, `find-key`, `export-public-key`, `sign`, `verify` and `delete-key`, with `openssl` and
/// `ssh-keygen` reading what they write (installed when missing), on both transports.
@Suite("coffer key commands", .serialized, .timeLimit(.minutes(10)))
struct KeyCommandTests {
    init() throws { try DebianPackages.ensureInstalled(["openssl", "openssh-client"]) }

    private static let message = Data("the challenge to sign\n".utf8)

    @Test(arguments: CLITransport.allCases) func anECKeyIsCreatedFoundAndSignsWhatOpenSSLVerifies(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        let created = try fixture.cli.run(["create-key", "--tag", "com.example.signing", "-l", "Signing key"])
        #expect(created.status == 0, "\(created.standardError)")
        #expect(created.standardOutput.hasPrefix("class: \"keys\"\nattributes:\n"))
        #expect(created.standardOutput.contains("\"atag\"<blob>=\"com.example.signing\""))
        #expect(created.standardOutput.contains("\"kcls\"<sint32>=1"))
        #expect(created.standardOutput.contains("\"type\"<sint32>=73"))
        #expect(created.standardOutput.contains("\"bsiz\"<sint32>=256"))
        #expect(created.standardOutput.contains("\"labl\"<blob>=\"Signing key\""))

        // Both halves are stored, as kSecAttrIsPermanent at the top level asks.
        let both = try fixture.cli.run(["find-key", "--tag", "com.example.signing"])
        #expect(both.standardOutput.components(separatedBy: "class: \"keys\"").count - 1 == 2)
        let publicOnly = try fixture.cli.run(["find-key", "--tag", "com.example.signing", "--class", "public"])
        #expect(publicOnly.standardOutput.contains("\"kcls\"<sint32>=0"))
        #expect(!publicOnly.standardOutput.contains("\"kcls\"<sint32>=1"))

        let pem = try fixture.cli.run(["export-public-key", "--tag", "com.example.signing"])
        #expect(pem.status == 0)
        #expect(pem.standardOutput.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        _ = try fixture.file("key.pem", Data(pem.standardOutput.utf8))
        let text = try fixture.peer(["openssl", "pkey", "-pubin", "-in", "key.pem", "-noout", "-text"])
        #expect(text.status == 0)
        #expect(text.output.contains("NIST CURVE: P-256"))

        let signature = try fixture.cli.run(["sign", "--tag", "com.example.signing"], inputBytes: Self.message)
        #expect(signature.status == 0)
        _ = try fixture.file("signature", signature.standardOutputBytes)
        _ = try fixture.file("message", Self.message)
        let verified = try fixture.peer(["openssl", "dgst", "-sha256", "-verify", "key.pem", "-signature", "signature", "message"])
        #expect(verified.output == "Verified OK\n")

        let ours = try fixture.cli.run(
            ["verify", "--tag", "com.example.signing", "--signature", fixture.scratch.appendingPathComponent("signature").path], inputBytes: Self.message)
        #expect(ours.status == 0)
        #expect(ours.standardOutput == "signature verified\n")
        let tampered = try fixture.cli.run(
            ["verify", "--tag", "com.example.signing", "--signature", fixture.scratch.appendingPathComponent("signature").path],
            inputBytes: Data("another message".utf8))
        #expect(tampered.status == 1)
        #expect(tampered.standardError.hasPrefix("coffer: verify: verification failed: "))
    }

    @Test(arguments: CLITransport.allCases) func rsaSignaturesInBothPaddingsVerifyWithOpenSSL(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        #expect(try fixture.cli.run(["create-key", "-t", "rsa", "-s", "2048", "--tag", "rsa"]).status == 0)
        // The private key never leaves, so openssl only checks: PSS (by Swift name and by identifier), and a
        // corrupted PKCS#1 v1.5 signature refused.
        let pem = try fixture.cli.run(["export-public-key", "--tag", "rsa"])
        _ = try fixture.file("key.pem", Data(pem.standardOutput.utf8))
        _ = try fixture.file("message", Self.message)
        let pss = try fixture.cli.run(["sign", "--tag", "rsa", "-a", "rsaSignatureMessagePSSSHA256"], inputBytes: Self.message)
        #expect(pss.status == 0)
        _ = try fixture.file("pss", pss.standardOutputBytes)
        let checked = try fixture.peer([
            "openssl", "dgst", "-sha256", "-verify", "key.pem", "-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:32",
            "-signature", "pss", "message",
        ])
        #expect(checked.output == "Verified OK\n")
        let byIdentifier = try fixture.cli.run(["sign", "--tag", "rsa", "-a", "algid:sign:RSA:message-PSS:SHA256:SHA256:32"], inputBytes: Self.message)
        _ = try fixture.file("pss2", byIdentifier.standardOutputBytes)
        let checkedAgain = try fixture.peer([
            "openssl", "dgst", "-sha256", "-verify", "key.pem", "-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:32",
            "-signature", "pss2", "message",
        ])
        #expect(checkedAgain.output == "Verified OK\n")
        let pkcs1 = try fixture.cli.run(["sign", "--tag", "rsa"], inputBytes: Self.message)
        var corrupted = pkcs1.standardOutputBytes
        corrupted[corrupted.startIndex + 10] ^= 0x01
        _ = try fixture.file("corrupted", corrupted)
        let refused = try fixture.peer(["openssl", "dgst", "-sha256", "-verify", "key.pem", "-signature", "corrupted", "message"])
        #expect(refused.status != 0)
        let text = try fixture.peer(["openssl", "pkey", "-pubin", "-in", "key.pem", "-noout", "-text"])
        #expect(text.output.contains("Public-Key: (2048 bit)"))
    }

    @Test(arguments: CLITransport.allCases) func derAndOpenSSHExportsAreWhatTheToolsRead(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        for (tag, arguments) in [("ec384", ["-s", "384"]), ("rsa", ["-t", "rsa"])] {
            #expect(try fixture.cli.run(["create-key", "--tag", tag] + arguments).status == 0)
            let pem = try fixture.cli.run(["export-public-key", "--tag", tag, "-f", "pem"])
            _ = try fixture.file("\(tag).pem", Data(pem.standardOutput.utf8))
            let der = try fixture.cli.run(["export-public-key", "--tag", tag, "-f", "der"])
            _ = try fixture.file("\(tag).der", der.standardOutputBytes)
            let converted = try fixture.peer(["openssl", "pkey", "-pubin", "-inform", "DER", "-in", "\(tag).der", "-outform", "PEM"])
            #expect(converted.output == pem.standardOutput)
            // ssh-keygen's own conversion of the PEM is the reference for the OpenSSH line.
            let reference = try fixture.peer(["ssh-keygen", "-i", "-m", "PKCS8", "-f", "\(tag).pem"])
            let line = try fixture.cli.run(["export-public-key", "--tag", tag, "-f", "openssh", "--comment", "me@host"])
            #expect(line.standardOutput == reference.output.trimmingCharacters(in: .newlines) + " me@host\n")
            _ = try fixture.file("\(tag).pub", Data(line.standardOutput.utf8))
            #expect(try fixture.peer(["ssh-keygen", "-l", "-f", "\(tag).pub"]).status == 0)
        }
    }

    @Test(arguments: CLITransport.allCases) func anEnclaveKeySignsAndOnlyItsPublicKeyLeaves(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        let created = try fixture.cli.run(["create-key", "--enclave", "--tag", "enclave"])
        #expect(created.status == 0, "\(created.standardError)")
        #expect(created.standardOutput.contains("\"tkid\"<blob>=\"com.apple.setoken\""))
        let pem = try fixture.cli.run(["export-public-key", "--tag", "enclave"])
        _ = try fixture.file("key.pem", Data(pem.standardOutput.utf8))
        _ = try fixture.file("message", Self.message)
        let signature = try fixture.cli.run(["sign", "--tag", "enclave"], inputBytes: Self.message)
        #expect(signature.status == 0, "\(signature.standardError)")
        _ = try fixture.file("signature", signature.standardOutputBytes)
        let verified = try fixture.peer(["openssl", "dgst", "-sha256", "-verify", "key.pem", "-signature", "signature", "message"])
        #expect(verified.output == "Verified OK\n")
        // Only P-256 and Ed25519 keys can be made so (the keychain's rule): Security's -50, truncated as `security` truncates statuses.
        let rsa = try fixture.cli.run(["create-key", "--enclave", "-t", "rsa", "--tag", "nope"])
        #expect(rsa.status == 206)
        #expect(rsa.standardError.hasPrefix("coffer: create-key: errSecParam (-50): "))
        #expect(
            rsa.standardError.contains(
                "a key that never leaves the keychain (kSecAttrTokenIDSecureEnclave) is a 256-bit kSecAttrKeyTypeECSECPrimeRandom (P-256) or kSecAttrKeyTypeEd25519 key"
            ))
    }

    @Test(arguments: CLITransport.allCases) func deletingRemovesBothHalvesAndMistakesAreNamed(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        #expect(try fixture.cli.run(["create-key", "--tag", "gone"]).status == 0)
        #expect(try fixture.cli.run(["delete-key", "--tag", "gone"]).status == 0)
        let missing = try fixture.cli.run(["find-key", "--tag", "gone"])
        #expect(missing.status == 44)
        #expect(
            missing.standardError
                == "coffer: find-key: errSecItemNotFound (-25300): No item matched the query. (C1: no item matches the query among the calling program's access groups)\n"
        )
        let unsigned = try fixture.cli.run(["sign", "--tag", "gone"], inputBytes: Self.message)
        #expect(unsigned.status == 44)
        #expect(unsigned.standardError.hasPrefix("coffer: sign: errSecItemNotFound (-25300)"))

        let unnamed = try fixture.cli.run(["sign"], inputBytes: Self.message)
        #expect(unnamed.status == 1)
        #expect(unnamed.standardError == "coffer: sign: name the key with --tag, -l LABEL or --application-label HEX\n")
        let badHex = try fixture.cli.run(["find-key", "--application-label", "xyz"])
        #expect(badHex.status == 64)
        #expect(badHex.standardError.contains("--application-label takes hexadecimal digits, two per byte: xyz"))
        let badAlgorithm = try fixture.cli.run(["sign", "--tag", "gone", "-a", "sha256"], inputBytes: Self.message)
        #expect(badAlgorithm.status == 64)
        #expect(badAlgorithm.standardError.contains("unknown algorithm sha256"))
        let badSize = try fixture.cli.run(["create-key", "-s", "300", "--tag", "odd"])
        #expect(badSize.status != 0)
        #expect(badSize.standardError.hasPrefix("coffer: create-key: "))
        let badType = try fixture.cli.run(["create-key", "-t", "dsa"])
        #expect(badType.status == 64)
    }
}
