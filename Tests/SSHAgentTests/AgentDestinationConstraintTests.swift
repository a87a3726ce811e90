import Foundation
import Testing
import TestProcesses

/// Destination constraints (`ssh-add -h`, `restrict-destination-v00@openssh.com`) end to end, with OpenSSH's own
/// `ssh-add`, `ssh` and `sshd`: a key constrained to a host logs in there (its `ssh` binds the session with
/// `session-bind@openssh.com`), is not offered anywhere else, signs nothing but logins (as OpenSSH's agent), and
/// keeps its constraint across a restart of the agent.
@Suite(.timeLimit(.minutes(5)))
struct AgentDestinationConstraintTests {
    @Test(arguments: AgentTransport.allCases)
    func aKeyConstrainedToAHostLogsInThereOnlyAndKeepsItsConstraintAcrossARestart(transport: AgentTransport) throws {
        try DebianPackages.ensureInstalled(["openssh-server"])
        let harness = try AgentHarness(transport: transport)
        let allowed = try harness.keygen("allowed", type: "ed25519", comment: "allowed-key")
        let elsewhere = try harness.keygen("elsewhere", type: "ecdsa", comment: "elsewhere-key")
        let otherHost = try harness.keygen("other-host", type: "ed25519", comment: "other-host")
        let allowedLine = try Self.publicLine(allowed)
        let elsewhereLine = try Self.publicLine(elsewhere)
        // Both servers would take either key; the second is known under a name neither key is constrained to.
        let server = try PrivateSSHServer(harness: harness, authorizedKey: "\(allowedLine)\n\(elsewhereLine)\n")
        let second = try PrivateSSHServer(harness: harness, authorizedKey: "\(allowedLine)\n\(elsewhereLine)\n")
        let knownHosts = harness.path("known_hosts")
        try Data(
            """
            allowedname \(server.hostPublicKey)
            secondname \(second.hostPublicKey)
            othername \(try Self.publicLine(otherHost))

            """.utf8
        ).write(to: URL(fileURLWithPath: knownHosts))

        let added = try harness.run(["ssh-add", "-H", knownHosts, "-h", "allowedname", allowed])
        #expect(added.status == 0, "\(added.errors)")
        #expect(try harness.run(["ssh-add", "-H", knownHosts, "-h", "othername", elsewhere]).status == 0)
        try FileManager.default.removeItem(atPath: allowed)
        try FileManager.default.removeItem(atPath: elsewhere)

        for restarted in [false, true] {
            if restarted {
                harness.stopAgent()
                try harness.startAgent()
            }
            // Local use (no binding): both listed.
            let listed = try harness.run(["ssh-add", "-l"])
            #expect(
                AgentHarness.lines(listed.output).map { $0.split(separator: " ").dropFirst(2).joined(separator: " ") }.sorted() == [
                    "allowed-key (ED25519)", "elsewhere-key (ECDSA)",
                ], "after restart: \(restarted)")

            // To the allowed host: only the allowed key is offered, and it logs in.
            let login = try harness.run(
                Self.login(server, alias: "allowedname", knownHosts: knownHosts, agent: harness.socket), extra: ["SSH_AUTH_SOCK": harness.path("none")])
            let log = (try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? ""
            #expect(login.status == 0, "\(login.errors)\n\(log)")
            #expect(login.output == "logged in\n")
            #expect(login.errors.contains("Will attempt key: allowed-key ED25519"), "\(login.errors)")
            #expect(!login.errors.contains("elsewhere-key"), "\(login.errors)")
            #expect(log.contains("Accepted publickey for \(server.user) from 127.0.0.1"), "\(log)")

            // To another host: neither key is offered, and the login fails.
            let refused = try harness.run(
                Self.login(second, alias: "secondname", knownHosts: knownHosts, agent: harness.socket), extra: ["SSH_AUTH_SOCK": harness.path("none")])
            #expect(refused.status == 255)
            #expect(refused.output == "")
            #expect(refused.errors.contains("Permission denied (publickey)"), "\(refused.errors)")
            #expect(!refused.errors.contains("allowed-key"), "\(refused.errors)")
            #expect(!refused.errors.contains("elsewhere-key"), "\(refused.errors)")
            let secondLog = (try? String(contentsOfFile: second.logPath, encoding: .utf8)) ?? ""
            #expect(!secondLog.contains("Accepted publickey"), "\(secondLog)")

            // Local signing with a constrained key is refused, as OpenSSH's agent refuses it: it signs only logins
            // on a bound connection.
            let signed = try harness.signAndVerify(publicKey: allowed + ".pub")
            #expect(signed.status != 0)
            #expect(signed.errors.contains("agent refused operation"), "\(signed.errors)")
        }
    }

    @Test(arguments: AgentTransport.allCases)
    func theUserOfAConstraintIsTheLoginsUser(transport: AgentTransport) throws {
        try DebianPackages.ensureInstalled(["openssh-server"])
        let harness = try AgentHarness(transport: transport)
        let key = try harness.keygen("user-key", type: "ed25519", comment: "user-key")
        let server = try PrivateSSHServer(harness: harness, authorizedKey: try Self.publicLine(key) + "\n")
        let knownHosts = harness.path("known_hosts")
        try Data("allowedname \(server.hostPublicKey)\n".utf8).write(to: URL(fileURLWithPath: knownHosts))
        let command = Self.login(server, alias: "allowedname", knownHosts: knownHosts, agent: harness.socket)

        // Constrained to another user at the host: offered (a listing does not know the user), but never signs.
        #expect(try harness.run(["ssh-add", "-H", knownHosts, "-h", "not-\(server.user)@allowedname", key]).status == 0)
        let wrong = try harness.run(command, extra: ["SSH_AUTH_SOCK": harness.path("none")])
        #expect(wrong.status == 255)
        #expect(wrong.errors.contains("agent refused operation"), "\(wrong.errors)")
        #expect(wrong.errors.contains("Permission denied (publickey)"), "\(wrong.errors)")

        // Added again with the right user: the constraint is replaced, and the login goes through.
        #expect(try harness.run(["ssh-add", "-H", knownHosts, "-h", "\(server.user)@allowedname", key]).status == 0)
        let right = try harness.run(command, extra: ["SSH_AUTH_SOCK": harness.path("none")])
        #expect(right.status == 0, "\(right.errors)")
        #expect(right.output == "logged in\n")
    }

    @Test func aForwardedAgentShowsOnlyKeysAllowedBeyondTheHost() throws {
        try DebianPackages.ensureInstalled(["openssh-server"])
        let harness = try AgentHarness()
        let hostOnly = try harness.keygen("host-only", type: "ed25519", comment: "host-only-key")
        let onward = try harness.keygen("onward", type: "ecdsa", comment: "onward-key")
        let free = try harness.keygen("free", type: "ed25519", comment: "unconstrained-key")
        let otherHost = try harness.keygen("other-host", type: "ed25519", comment: "other-host")
        let server = try PrivateSSHServer(harness: harness, authorizedKey: try Self.publicLine(hostOnly) + "\n")
        let knownHosts = harness.path("known_hosts")
        try Data("allowedname \(server.hostPublicKey)\nothername \(try Self.publicLine(otherHost))\n".utf8)
            .write(to: URL(fileURLWithPath: knownHosts))
        #expect(try harness.run(["ssh-add", "-H", knownHosts, "-h", "allowedname", hostOnly]).status == 0)
        #expect(try harness.run(["ssh-add", "-H", knownHosts, "-h", "allowedname", "-h", "allowedname>othername", onward]).status == 0)
        #expect(try harness.run(["ssh-add", free]).status == 0)

        // ssh -A binds the forwarded agent's connections as forwarding ones: on the host, the key allowed only to log
        // in there is hidden, the key allowed onward is listed, and so is the unconstrained one.
        var command = Self.login(server, alias: "allowedname", knownHosts: knownHosts, agent: harness.socket)
        command.insert("-A", at: 1)
        command[command.count - 1] = "ssh-add -l"
        let listed = try harness.run(command, extra: ["SSH_AUTH_SOCK": harness.path("none")])
        #expect(listed.status == 0, "\(listed.errors)")
        let comments = AgentHarness.lines(listed.output).map { $0.split(separator: " ").dropFirst(2).joined(separator: " ") }.sorted()
        #expect(comments == ["onward-key (ECDSA)", "unconstrained-key (ED25519)"])
    }

    @Test func aConstraintNamingACertificateAuthorityIsKeptWithTheKey() throws {
        let harness = try AgentHarness()
        let ca = try harness.keygen("host-ca", type: "ed25519", comment: "host-ca")
        let knownHosts = harness.path("known_hosts")
        try Data("@cert-authority *.example \(try Self.publicLine(ca))\n".utf8).write(to: URL(fileURLWithPath: knownHosts))
        let key = try harness.keygen("user", type: "ed25519", comment: "restricted")
        let added = try harness.run(["ssh-add", "-H", knownHosts, "-h", "host-a.example", key])
        #expect(added.status == 0, "\(added.errors)")
        // Listed locally (no session bound). Which hosts it then logs in to (those with a certificate of that
        // authority, and no others) is AgentCertificateTests' subject.
        #expect(try harness.run(["ssh-add", "-l"]).output.contains("restricted (ED25519)"))
    }

    /// The `type base64` of a key's public file.
    static func publicLine(_ privateKey: String) throws -> String {
        try String(contentsOfFile: privateKey + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
    }

    /// `ssh -v` to `server` with the agent at `agent` only, checking the host's key under `alias` in `knownHosts`.
    static func login(_ server: PrivateSSHServer, alias: String, knownHosts: String, agent: String) -> [String] {
        [
            "ssh", "-F", "/dev/null", "-v", "-o", "IdentityAgent=\(agent)", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes",
            "-o", "UserKnownHostsFile=\(knownHosts)", "-o", "GlobalKnownHostsFile=/dev/null", "-o", "HostKeyAlias=\(alias)",
            "-p", String(server.port), "\(server.user)@127.0.0.1", "echo logged in",
        ]
    }
}
