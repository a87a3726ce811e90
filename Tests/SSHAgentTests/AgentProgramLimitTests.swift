import Foundation
import Testing

@testable import SSHAgent

/// Keys limited to programs (`coffer ssh-agent limit`): the agent identifies each connection's program as cofferd
/// does, and a key limited to `ssh-keygen` signs for `ssh-keygen -Y sign` only: `ssh-add` (another program) does not
/// list it, and this test process, speaking the protocol itself, gets the failure answer for it.
@Suite(.timeLimit(.minutes(5)))
struct AgentProgramLimitTests {
    @Test(arguments: AgentTransport.allCases)
    func aKeyLimitedToSSHKeygenServesOnlyItUntilTheLimitIsCleared(transport: AgentTransport) throws {
        let harness = try AgentHarness(transport: transport)
        let key = try harness.keygen("limited", type: "ed25519", comment: "limited@test")
        #expect(try harness.run(["ssh-add", key]).status == 0)
        // Only the agent can sign from here on.
        try FileManager.default.removeItem(atPath: key)
        let fingerprint = try #require(try harness.run(["ssh-keygen", "-lf", key + ".pub"]).output.split(separator: " ").dropFirst().first)
        let blob = try publicKeyBlob(key + ".pub")
        // The group of the unregistered program /usr/bin/ssh-keygen: `unregistered.` and 16 hex digits of SHA-256 of its path.
        let digest = try harness.run(["sh", "-c", "printf %s /usr/bin/ssh-keygen | sha256sum"]).output.prefix(16)
        let group = "unregistered.\(digest)"

        let limited = try harness.coffer(["ssh-agent", "limit", String(fingerprint), "--program", "/usr/bin/ssh-keygen"])
        #expect(limited.status == 0, "\(limited.errors)")
        #expect(limited.output == "\(fingerprint) limited@test: /usr/bin/ssh-keygen (\(group))\n")
        #expect(try harness.coffer(["ssh-agent", "limits"]).output == "\(fingerprint) limited@test: /usr/bin/ssh-keygen (\(group))\n")

        // ssh-keygen may use it; ssh-add does not see it; a third program gets SSH_AGENT_FAILURE when it asks.
        let verified = try harness.signAndVerify(publicKey: key + ".pub")
        #expect(verified.status == 0, "\(verified.errors)")
        #expect(verified.output.contains("Good \"file\" signature for tester@example.com with ED25519 key \(fingerprint)"))
        let listed = try harness.run(["ssh-add", "-l"])
        #expect(listed.status == 1)
        #expect(listed.output == "The agent has no identities.\n")
        let client = try RawAgentClient(path: harness.socket)
        #expect(try client.request(Data([AgentMessageNumber.requestIdentities])) == Data([AgentMessageNumber.identitiesAnswer, 0, 0, 0, 0]))
        #expect(try client.request(signRequest(blob: blob)) == Data([AgentMessageNumber.failure]))
        // Nor may another program remove it, nor a script export it through the CLI (the probe's attack): the key
        // the agent stored is not extractable, and nothing is written.
        #expect(try harness.run(["ssh-add", "-d", key + ".pub"]).status != 0)
        let stolen = harness.path("stolen.pem")
        let export = try harness.coffer(["export", "--private-key", "--label", "limited@test", "-o", stolen])
        #expect(export.status != 0)
        #expect(export.errors.contains("is not extractable (kSecAttrIsExtractable is false)"))
        #expect(!FileManager.default.fileExists(atPath: stolen))
        #expect(try harness.run(["ssh-add", "-D"]).status == 0)
        #expect(try harness.coffer(["ssh-agent", "limits"]).output == "\(fingerprint) limited@test: /usr/bin/ssh-keygen (\(group))\n")

        let cleared = try harness.coffer(["ssh-agent", "limit", "limited@test", "--clear"])
        #expect(cleared.status == 0, "\(cleared.errors)")
        #expect(cleared.output == "\(fingerprint) limited@test: every program\n")
        #expect(try harness.run(["ssh-add", "-l"]).output == "256 \(fingerprint) limited@test (ED25519)\n")
        let again = try RawAgentClient(path: harness.socket)
        #expect(try again.request(signRequest(blob: blob)).first == AgentMessageNumber.signResponse)
        #expect(try harness.signAndVerify(publicKey: key + ".pub").status == 0)
    }

    /// With cofferd, a program registered with `coffer apps add` is known by its app's groups: the limit stores them, and
    /// the agent recognises the program through the registry the daemon lists.
    @Test func aRegisteredProgramIsLimitedByItsAppsGroups() throws {
        let harness = try AgentHarness(transport: .daemon)
        let coffer = AgentHarness.executable("coffer")
        #expect(try harness.run([coffer, "passcode", "set"], input: "limit passcode\n").status == 0)
        let registered = try harness.run(
            [
                coffer, "apps", "add", "/usr/bin/ssh-keygen", "--app-id", "TEAM.org.example.keygen", "--group", "TEAM.org.example.signing",
                "--by-path",
            ], input: "limit passcode\n")
        try #require(registered.status == 0, "\(registered.errors)")
        let key = try harness.keygen("registered", type: "ecdsa", comment: "registered@test")
        #expect(try harness.run(["ssh-add", key]).status == 0)
        try FileManager.default.removeItem(atPath: key)

        let limited = try harness.coffer(["ssh-agent", "limit", "registered@test", "--program", "/usr/bin/ssh-keygen"])
        #expect(limited.status == 0, "\(limited.errors)")
        #expect(
            limited.output.hasSuffix(
                " registered@test: /usr/bin/ssh-keygen (TEAM.org.example.signing), /usr/bin/ssh-keygen (TEAM.org.example.keygen)\n"))
        let verified = try harness.signAndVerify(publicKey: key + ".pub")
        #expect(verified.status == 0, "\(verified.errors)")
        #expect(verified.output.contains("Good \"file\" signature for tester@example.com with ECDSA key"))
        #expect(try harness.run(["ssh-add", "-l"]).output == "The agent has no identities.\n")
    }

    @Test func addingALimitedKeyAgainKeepsItsLimit() throws {
        let harness = try AgentHarness()
        let key = try harness.keygen("readded", type: "ecdsa", comment: "first@test")
        #expect(try harness.run(["ssh-add", key]).status == 0)
        #expect(try harness.coffer(["ssh-agent", "limit", "first@test", "--program", "/usr/bin/ssh-keygen"]).status == 0)
        let before = try harness.coffer(["ssh-agent", "limits"]).output
        #expect(before.contains(" first@test: /usr/bin/ssh-keygen (unregistered."))
        // ssh-add holds the private key, so it may add it again (with -c); the limit stays.
        #expect(try harness.run(["ssh-add", "-c", key]).status == 0)
        #expect(try harness.run(["ssh-add", "-l"]).output == "The agent has no identities.\n")
        #expect(try harness.coffer(["ssh-agent", "limits"]).output == before)
    }

    @Test func theLimitCommandNamesWhatItCannotFind() throws {
        let harness = try AgentHarness()
        let key = try harness.keygen("named", type: "ed25519", comment: "named@test")
        #expect(try harness.run(["ssh-add", key]).status == 0)
        let unknown = try harness.coffer(["ssh-agent", "limit", "SHA256:nothing", "--program", "/usr/bin/ssh-keygen"])
        #expect(unknown.status != 0)
        #expect(unknown.errors.contains("no key of the agent has the fingerprint or comment SHA256:nothing"))
        let missing = try harness.coffer(["ssh-agent", "limit", "named@test", "--program", "/no/such/program"])
        #expect(missing.status != 0)
        #expect(missing.errors.contains("no program at /no/such/program"))
        #expect(try harness.coffer(["ssh-agent", "limit", "named@test"]).status != 0)
        #expect(try harness.run(["ssh-add", "-l"]).output.hasSuffix(" named@test (ED25519)\n"))
    }

    @Test func theTagKeepsTheAllowedGroupsAndOldTagsAllowEveryProgram() throws {
        let tag = AgentKeyTag(expiresAt: 42, confirm: true, allowedGroups: ["TEAM.com.example;odd=%", "unregistered.0123456789abcdef"])
        #expect(
            String(decoding: tag.data, as: UTF8.self)
                == "coffer.ssh-agent:expires=42;confirm;allow=TEAM.com.example%3Bodd%3D%25;allow=unregistered.0123456789abcdef")
        #expect(AgentKeyTag(tag.data) == tag)
        #expect(tag.allows(callerGroups: ["unregistered.0123456789abcdef"]))
        #expect(!tag.allows(callerGroups: ["unregistered.fedcba9876543210"]))
        #expect(!tag.allows(callerGroups: []))
        let old = try #require(AgentKeyTag(Data("coffer.ssh-agent:confirm".utf8)))
        #expect(old.allowedGroups == nil)
        #expect(old.allows(callerGroups: []))
        #expect(AgentKeyTag(Data("coffer.ssh-agent:allow=".utf8)) == nil)
    }

    /// The key blob of an OpenSSH public key file (its second field, base64).
    private func publicKeyBlob(_ path: String) throws -> Data {
        let line = try String(contentsOfFile: path, encoding: .utf8)
        let field = try #require(line.split(separator: " ").dropFirst().first)
        return try #require(Data(base64Encoded: String(field)))
    }

    /// An `SSH_AGENTC_SIGN_REQUEST` for `blob` over a short message, with no flags.
    private func signRequest(blob: Data) -> Data {
        var writer = SSHWireWriter()
        writer.byte(AgentMessageNumber.signRequest)
        writer.string(blob)
        writer.string(Data("data from a third program".utf8))
        writer.uint32(0)
        return writer.bytes
    }
}
