import Foundation
import Testing

/// `coffer ssh-agent` with OpenSSH's own tools: `ssh-add`, `ssh-keygen -Y sign|verify`, on a private socket over a
/// private keychain. Private key files are deleted once added, so every signature is the agent's.
@Suite(.timeLimit(.minutes(5)))
struct AgentOpenSSHTests {
    @Test func addedKeysAreListedAsOpenSSHPrintsThem() throws {
        let harness = try AgentHarness()
        let ecdsa = try harness.keygen("p256", type: "ecdsa", comment: "p256@test")
        let rsa = try harness.keygen("rsa", type: "rsa", bits: 3072, comment: "rsa@test")
        let added = try harness.run(["ssh-add", ecdsa, rsa])
        #expect(added.status == 0, "\(added.errors)")

        let listed = try harness.run(["ssh-add", "-l"])
        let fingerprints = try harness.run(["ssh-keygen", "-lf", ecdsa]).output + harness.run(["ssh-keygen", "-lf", rsa]).output
        #expect(AgentHarness.lines(listed.output) == AgentHarness.lines(fingerprints))
        let exported = try harness.run(["ssh-add", "-L"])
        let publicFiles = try String(contentsOfFile: ecdsa + ".pub", encoding: .utf8) + String(contentsOfFile: rsa + ".pub", encoding: .utf8)
        #expect(AgentHarness.lines(exported.output) == AgentHarness.lines(publicFiles))
    }

    @Test(arguments: [("ecdsa", 256), ("ecdsa", 384), ("ecdsa", 521), ("rsa", 3072), ("ed25519", 256)])
    func signaturesThroughTheAgentVerify(type: String, bits: Int) throws {
        let harness = try AgentHarness()
        let key = try harness.keygen("key", type: type, bits: bits, comment: "\(type)-\(bits)")
        #expect(try harness.run(["ssh-add", key]).status == 0)
        try FileManager.default.removeItem(atPath: key)
        let verified = try harness.signAndVerify(publicKey: key + ".pub")
        #expect(verified.status == 0, "\(verified.errors)")
        #expect(verified.output.contains("Good \"file\" signature for tester@example.com"))
    }

    @Test func dsaKeysAreRefused() throws {
        let harness = try AgentHarness()
        let dsa = try harness.keygen("dsa", type: "dsa", comment: "dsa")
        let refused = try harness.run(["ssh-add", dsa])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("agent refused operation"))
        #expect(try harness.run(["ssh-add", "-l"]).output.contains("no identities"))
    }

    @Test func keysAreRemovedOneByOneOrAllAtOnce() throws {
        let harness = try AgentHarness()
        let first = try harness.keygen("first", type: "ecdsa", comment: "first")
        let second = try harness.keygen("second", type: "ecdsa", bits: 384, comment: "second")
        #expect(try harness.run(["ssh-add", first, second]).status == 0)
        let removed = try harness.run(["ssh-add", "-d", first + ".pub"])
        #expect(removed.status == 0, "\(removed.errors)")
        #expect(try harness.run(["ssh-add", "-L"]).output == String(contentsOfFile: second + ".pub", encoding: .utf8))
        #expect(try harness.run(["ssh-add", "-d", first + ".pub"]).status != 0)
        #expect(try harness.run(["ssh-add", "-D"]).status == 0)
        let empty = try harness.run(["ssh-add", "-l"])
        #expect(empty.status == 1 && empty.output.contains("The agent has no identities."))
    }

    @Test func aLockedAgentListsNothingAndUnlocksWithItsPassphraseOnly() throws {
        let harness = try AgentHarness()
        let key = try harness.keygen("key", type: "ecdsa", comment: "locked")
        #expect(try harness.run(["ssh-add", key]).status == 0)
        try FileManager.default.removeItem(atPath: key)
        let askpass = try harness.askpass("right", answer: "correct horse")
        let wrong = try harness.askpass("wrong", answer: "battery staple")
        #expect(try harness.run(["ssh-add", "-x"], extra: askpass).status == 0)
        #expect(try harness.run(["ssh-add", "-l"]).output.contains("no identities"))
        #expect(try harness.signAndVerify(publicKey: key + ".pub").status != 0)
        #expect(try harness.run(["ssh-add", "-x"], extra: askpass).status != 0)
        #expect(try harness.run(["ssh-add", "-X"], extra: wrong).status != 0)
        #expect(try harness.run(["ssh-add", "-X"], extra: askpass).status == 0)
        #expect(try harness.run(["ssh-add", "-l"]).output.contains("locked (ECDSA)"))
        #expect(try harness.signAndVerify(publicKey: key + ".pub").status == 0)
    }

    @Test func keysSurviveARestartOfTheAgent() throws {
        let harness = try AgentHarness()
        let key = try harness.keygen("key", type: "rsa", bits: 2048, comment: "persistent")
        #expect(try harness.run(["ssh-add", key]).status == 0)
        try FileManager.default.removeItem(atPath: key)
        let stopped = harness.stopAgent()
        #expect(stopped?.succeeded == true)
        #expect(!FileManager.default.fileExists(atPath: harness.socket), "the agent removes its socket when it stops")
        try harness.startAgent()
        #expect(try harness.run(["ssh-add", "-L"]).output == String(contentsOfFile: key + ".pub", encoding: .utf8))
        #expect(try harness.signAndVerify(publicKey: key + ".pub").status == 0)
    }

    @Test func aKeyThatNeverLeavesTheKeychainSignsAndStaysThroughRemoveAll() throws {
        let harness = try AgentHarness()
        let made = try harness.coffer(["create-key", "--ssh", "-l", "enclave@test"])
        #expect(made.status == 0, "\(made.errors)")
        #expect(made.output.hasPrefix("ecdsa-sha2-nistp256 ") && made.output.hasSuffix(" enclave@test\n"))
        let publicKey = harness.path("enclave.pub")
        try Data(made.output.utf8).write(to: URL(fileURLWithPath: publicKey))
        #expect(try harness.run(["ssh-add", "-L"]).output == made.output)
        let verified = try harness.signAndVerify(publicKey: publicKey)
        #expect(verified.status == 0, "\(verified.errors)")
        // Neither -d nor -D deletes a key that can never be made again.
        #expect(try harness.run(["ssh-add", "-d", publicKey]).status != 0)
        #expect(try harness.run(["ssh-add", "-D"]).status == 0)
        #expect(try harness.run(["ssh-add", "-L"]).output == made.output)
        let export = try harness.coffer(["export", "--private-key", "--label", "enclave@test", "-o", harness.path("stolen.pem")])
        #expect(export.status != 0)
        #expect(!FileManager.default.fileExists(atPath: harness.path("stolen.pem")))
    }

    @Test func aKeyWithALifetimeGoesAwayWhenItEnds() throws {
        let harness = try AgentHarness()
        let key = try harness.keygen("key", type: "ecdsa", comment: "short-lived")
        #expect(try harness.run(["ssh-add", "-t", "2", key]).status == 0)
        #expect(try harness.run(["ssh-add", "-l"]).output.contains("short-lived"))
        usleep(3_100_000)
        #expect(try harness.run(["ssh-add", "-l"]).output.contains("no identities"))
    }

    @Test(arguments: [("ecdsa", "ECDSA"), ("ed25519", "ED25519")])
    func aKeyThatNeedsConfirmationAsksThroughPinentryBeforeEachUse(type: String, listedType: String) throws {
        let harness = try AgentHarness()
        let key = try harness.keygen("key", type: type, comment: "confirm-me")
        #expect(try harness.run(["ssh-add", "-c", key]).status == 0)
        try FileManager.default.removeItem(atPath: key)
        #expect(try harness.run(["ssh-add", "-l"]).output.contains("confirm-me (\(listedType))"))
        // Refused in the dialog: no signature.
        #expect(try harness.signAndVerify(publicKey: key + ".pub").status != 0)
        // Allowed: the signature verifies, and the dialog named the key.
        #expect(FileManager.default.createFile(atPath: harness.path("allow-confirm"), contents: Data()))
        let verified = try harness.signAndVerify(publicKey: key + ".pub")
        #expect(verified.status == 0, "\(verified.errors)")
        let log = try String(contentsOfFile: harness.path("pinentry.log"), encoding: .utf8)
        #expect(log.contains("SETDESC Allow use of the SSH key confirm-me (SHA256:"))
        #expect(log.split(separator: "\n").count == 2, "one question per use")
    }
}

extension AgentHarness {
    /// The environment that makes `ssh-add` read its passphrase from a script printing `answer`.
    func askpass(_ name: String, answer: String) throws -> [String: String] {
        let script = path("askpass-\(name)")
        try Data("#!/bin/sh\nprintf '%s\\n' '\(answer)'\n".utf8).write(to: URL(fileURLWithPath: script))
        chmod(script, 0o700)
        return ["SSH_ASKPASS": script, "SSH_ASKPASS_REQUIRE": "force", "DISPLAY": ":0"]
    }
}
