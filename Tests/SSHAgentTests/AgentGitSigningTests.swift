import Foundation
import Testing
import TestProcesses

/// git's SSH commit signing (`gpg.format=ssh`) through the agent: git runs `ssh-keygen -Y sign -n git -U` with the
/// public key alone, so the agent makes the signature; `git verify-commit` checks it against an allowed-signers file.
@Suite(.timeLimit(.minutes(5)))
struct AgentGitSigningTests {
    @Test(arguments: AgentTransport.allCases)
    func gitSignsCommitsWithAKeyThatNeverLeavesAndWithAnAddedKey(transport: AgentTransport) throws {
        try DebianPackages.ensureInstalled(["git"])
        let harness = try AgentHarness(transport: transport)
        let kept = try harness.coffer(["create-key", "--ssh", "-t", "ed25519", "-l", "git-signing-kept"])
        #expect(kept.status == 0, "\(kept.errors)")
        let added = try harness.keygen("git-ecdsa", type: "ecdsa", bits: 256, comment: "git-signing-added")
        #expect(try harness.run(["ssh-add", added]).status == 0)
        let addedPublic = try String(contentsOfFile: added + ".pub", encoding: .utf8)
        // The private key file goes: only the agent can sign with it now.
        try FileManager.default.removeItem(atPath: added)

        for publicLine in [kept.output, addedPublic].map(Self.keyField) {
            let repository = harness.path("repo-\(UUID().uuidString.prefix(6))")
            let git = GitRepository(harness: harness, path: repository, signingKey: publicLine)
            #expect(try git.run(["init", "-q", repository], inRepository: false).status == 0)
            let commit = try git.run(["commit", "--allow-empty", "-S", "-m", "signed by the agent"])
            #expect(commit.status == 0, "\(commit.errors)")

            let verified = try git.run(["verify-commit", "HEAD"])
            #expect(verified.status == 0, "\(verified.errors)")
            #expect(verified.errors.contains("Good \"git\" signature for tester@example.com"), "\(verified.errors)")

            let log = try git.run(["log", "-1", "--format=%G?"])
            #expect(log.output == "G\n")
        }
    }

    @Test func gitCannotSignWithAKeyTheAgentDoesNotHave() throws {
        try DebianPackages.ensureInstalled(["git"])
        let harness = try AgentHarness()
        let stranger = try harness.keygen("git-stranger", type: "ed25519", comment: "not in the agent")
        let publicLine = Self.keyField(try String(contentsOfFile: stranger + ".pub", encoding: .utf8))
        let repository = harness.path("repo-stranger")
        let git = GitRepository(harness: harness, path: repository, signingKey: publicLine)
        #expect(try git.run(["init", "-q", repository], inRepository: false).status == 0)
        let commit = try git.run(["commit", "--allow-empty", "-S", "-m", "cannot be signed"])
        #expect(commit.status != 0)
        #expect(try git.run(["rev-parse", "--verify", "-q", "HEAD"]).status != 0, "no commit was made")
    }

    /// The key's type and base64 fields of a public key line, without its comment.
    static func keyField(_ line: String) -> String {
        line.split(separator: " ").prefix(2).joined(separator: " ")
    }
}

/// A repository in the harness's folder and git run on it with SSH signing set up: the literal `key::` signing key
/// (git then signs through the agent with `ssh-keygen -U`), and an allowed-signers file naming that key.
private struct GitRepository {
    let harness: AgentHarness
    let path: String
    let signingKey: String

    func run(_ arguments: [String], inRepository: Bool = true) throws -> AgentHarness.Outcome {
        let allowed = path + ".allowed-signers"
        if !FileManager.default.fileExists(atPath: allowed) {
            try Data("tester@example.com namespaces=\"git\" \(signingKey)\n".utf8).write(to: URL(fileURLWithPath: allowed))
        }
        let settings = [
            "user.name=Tester", "user.email=tester@example.com", "gpg.format=ssh", "user.signingkey=key::\(signingKey)",
            "gpg.ssh.allowedSignersFile=\(allowed)", "init.defaultBranch=main",
        ]
        var command = ["git"]
        if inRepository { command += ["-C", path] }
        for setting in settings { command += ["-c", setting] }
        return try harness.run(command + arguments, extra: ["GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"])
    }
}
