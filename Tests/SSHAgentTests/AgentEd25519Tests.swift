import Foundation
import Testing

/// Ed25519 through `coffer ssh-agent` with OpenSSH's own tools, on both transports: keys added with `ssh-add` (stored
/// as keychain key items of type 105, with their comment and constraints) and keys made with `coffer create-key --ssh
/// -t ed25519`, which never leave the keychain.
@Suite(.timeLimit(.minutes(5)))
struct AgentEd25519Tests {
    @Test(arguments: AgentTransport.allCases)
    func anAddedEd25519KeyIsStoredListedSignsAndIsRemoved(transport: AgentTransport) throws {
        let harness = try AgentHarness(transport: transport)
        let key = try harness.keygen("ed", type: "ed25519", comment: "ed25519@test")
        let added = try harness.run(["ssh-add", "-t", "600", key])
        #expect(added.status == 0, "\(added.errors)")
        try FileManager.default.removeItem(atPath: key)
        let publicLine = try String(contentsOfFile: key + ".pub", encoding: .utf8)

        let listed = try harness.run(["ssh-add", "-l"])
        #expect(listed.output == (try harness.run(["ssh-keygen", "-lf", key + ".pub"]).output))
        #expect(listed.output.hasSuffix(" ed25519@test (ED25519)\n"))
        #expect(try harness.run(["ssh-add", "-L"]).output == publicLine)

        // Stored as a key item: Ed25519 (kSecAttrKeyType 105), the comment as its label, the lifetime in its tag.
        let item = try harness.coffer(["find-key", "--label", "ed25519@test", "--class", "private"])
        #expect(item.status == 0, "\(item.errors)")
        #expect(item.output.contains("\"type\"<sint32>=105"))
        #expect(item.output.contains("\"labl\"<blob>=\"ed25519@test\""))
        #expect(item.output.contains("\"atag\"<blob>=\"coffer.ssh-agent:expires="))

        // Twice: the second signature uses the key the agent kept from the first (OpenedAgentKeys).
        for message in ["first message\n", "second message\n"] {
            let verified = try harness.signAndVerify(publicKey: key + ".pub", message: message)
            #expect(verified.status == 0, "\(verified.errors)")
            #expect(verified.output.contains("Good \"file\" signature for tester@example.com with ED25519 key"))
        }

        #expect(try harness.run(["ssh-add", "-d", key + ".pub"]).status == 0)
        #expect(try harness.run(["ssh-add", "-l"]).output == "The agent has no identities.\n")
        #expect(try harness.coffer(["find-key", "--label", "ed25519@test"]).status != 0)
    }

    @Test func anAddedEd25519KeySurvivesARestartOfTheAgent() throws {
        let harness = try AgentHarness()
        let key = try harness.keygen("ed", type: "ed25519", comment: "persistent-ed25519")
        #expect(try harness.run(["ssh-add", key]).status == 0)
        try FileManager.default.removeItem(atPath: key)
        #expect(harness.stopAgent()?.succeeded == true)
        try harness.startAgent()
        #expect(try harness.run(["ssh-add", "-L"]).output == String(contentsOfFile: key + ".pub", encoding: .utf8))
        let verified = try harness.signAndVerify(publicKey: key + ".pub")
        #expect(verified.status == 0, "\(verified.errors)")
    }

    @Test(arguments: AgentTransport.allCases)
    func anEd25519KeyThatNeverLeavesSignsAndCannotBeExported(transport: AgentTransport) throws {
        let harness = try AgentHarness(transport: transport)
        let made = try harness.coffer(["create-key", "--ssh", "-t", "ed25519", "-l", "kept-ed25519@test"])
        #expect(made.status == 0, "\(made.errors)")
        #expect(made.output.hasPrefix("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI") && made.output.hasSuffix(" kept-ed25519@test\n"))
        let publicKey = harness.path("kept.pub")
        try Data(made.output.utf8).write(to: URL(fileURLWithPath: publicKey))
        #expect(try harness.run(["ssh-add", "-L"]).output == made.output)
        #expect(try harness.run(["ssh-add", "-l"]).output.hasSuffix(" kept-ed25519@test (ED25519)\n"))

        let verified = try harness.signAndVerify(publicKey: publicKey)
        #expect(verified.status == 0, "\(verified.errors)")
        #expect(verified.output.contains("Good \"file\" signature for tester@example.com with ED25519 key"))

        let item = try harness.coffer(["find-key", "--label", "kept-ed25519@test", "--class", "private"])
        #expect(item.output.contains("\"tkid\"<blob>=\"com.apple.setoken\""), "\(item.errors)")
        #expect(item.output.contains("\"type\"<sint32>=105"))
        #expect(try harness.run(["ssh-add", "-D"]).status == 0)
        #expect(try harness.run(["ssh-add", "-L"]).output == made.output)
        let export = try harness.coffer(["export", "--private-key", "--label", "kept-ed25519@test", "-o", harness.path("stolen.pem")])
        #expect(export.status != 0)
        #expect(export.errors.contains("never leaves the keychain"))
        #expect(!FileManager.default.fileExists(atPath: harness.path("stolen.pem")))
    }

    @Test func createKeySshRefusesOtherTypesAndSizes() throws {
        let harness = try AgentHarness()
        for arguments in [["-t", "rsa"], ["-t", "ed25519", "-s", "384"], ["-t", "ec", "-s", "384"]] {
            let refused = try harness.coffer(["create-key", "--ssh", "-l", "nope"] + arguments)
            #expect(refused.status != 0, "\(arguments)")
        }
        #expect(try harness.run(["ssh-add", "-l"]).output == "The agent has no identities.\n")
    }
}
