import Foundation
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// The SSH agent's keys are the keychain owner's (the owner's group, which the system daemon opens only to a
/// connection that proved the passcode): the agent proves through the person's prompt agent, and a script that
/// runs `coffer` without the passcode can neither list a key's limit, nor change it, nor export it.
extension MultiUserDaemonTests {
    @Test func aScriptCannotSeeOrUnlimitTheAgentsKeys() throws {
        try DebianPackages.ensureInstalled(["openssh-client"])
        let fixture = try Fixture()
        try fixture.startDaemon()
        let alice = Self.alice
        #expect(try fixture.coffer(alice, ["passcode", "set"], input: "alice-code\n").status == 0)
        #expect(try fixture.coffer(alice, ["lock"], input: "alice-code\n").status == 0)
        let person = try Self.answeringPinentry(fixture, "person", answer: "alice-code")
        let promptAgent = try ChildProcess(Self.promptAgent(fixture, alice, pinentry: person.pinentry), output: .null, errors: .null)
        defer { promptAgent.kill() }
        #expect(try fixture.unlockThroughAgent(alice) == "0")

        let home = fixture.root.appendingPathComponent("alice-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        #expect(try Self.run(["/bin/chown", alice, home.path]).status == 0)
        let socket = home.appendingPathComponent("agent.sock").path
        func asAlice(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
            try Self.run(["/usr/sbin/runuser", "-u", alice, "--", "/usr/bin/env", "SSH_AUTH_SOCK=\(socket)"] + arguments, input: input)
        }
        // The agent runs without a terminal, as systemd starts it: it proves through the prompt agent on first use.
        let agent = try ChildProcess(
            [
                "/usr/sbin/runuser", "-u", alice, "--", "/usr/bin/env", "COFFER_SOCKET=\(fixture.socket)", fixture.cli, "ssh-agent", "-D",
                "-a", socket,
            ], output: .null, errors: .null)
        defer { agent.kill() }
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        let keyFile = home.appendingPathComponent("id").path
        #expect(try asAlice(["/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "person@test", "-f", keyFile]).status == 0)
        let added = try asAlice(["/usr/bin/ssh-add", keyFile])
        #expect(added.status == 0, "\(added.output)")
        #expect(try asAlice(["/usr/bin/ssh-add", "-l"]).output.contains("person@test (ED25519)"))
        // The person was asked three times: the prompt agent's start, the unlock, and the SSH agent's proof.
        #expect(try String(contentsOfFile: person.answer + ".asked", encoding: .utf8).split(separator: "\n").count == 3)

        // A script of Alice's, without the passcode; the person cancels what the prompt agent then shows.
        try "CANCEL".write(toFile: person.answer, atomically: false, encoding: .utf8)
        let listed = try fixture.coffer(alice, ["ssh-agent", "limits"])
        #expect(listed.status != 0)
        #expect(listed.output.contains("the agent's keys are the keychain owner's"))
        let unlimited = try fixture.coffer(alice, ["ssh-agent", "limit", "person@test", "--program", "/usr/bin/true"])
        #expect(unlimited.status != 0)
        let stolen = home.appendingPathComponent("stolen.pem").path
        let exported = try fixture.coffer(alice, ["export", "--private-key", "--label", "person@test", "-o", stolen])
        #expect(exported.status != 0)
        #expect(!FileManager.default.fileExists(atPath: stolen))
        let made = try fixture.coffer(alice, ["create-key", "--ssh", "--label", "planted@test"])
        #expect(made.status != 0)
        #expect(made.output.contains("the SSH agent's keys are the keychain owner's"))
        #expect(try asAlice(["/usr/bin/ssh-add", "-l"]).output.contains("person@test (ED25519)"))

        // The person, with the passcode, limits the key to ssh-keygen: ssh-add no longer lists it.
        let limited = try fixture.coffer(alice, ["ssh-agent", "limit", "person@test", "--program", "/usr/bin/ssh-keygen"], input: "alice-code\n")
        #expect(limited.status == 0, "\(limited.output)")
        #expect(limited.output.contains("person@test: /usr/bin/ssh-keygen"))
        #expect(try asAlice(["/usr/bin/ssh-add", "-l"]).output == "The agent has no identities.\n")
    }

    /// The owner's group is never another program's: with or without a passcode, a program that is not the trusted
    /// front end cannot name it (errSecMissingEntitlement), while the unregistered group of its own still works.
    @Test func anotherProgramNeverGetsTheOwnersGroup() throws {
        let fixture = try Fixture()
        try fixture.startDaemon()
        let alice = Self.alice
        #expect(try fixture.client(alice, "app-c", "add", "planted", group: "coffer.owner.ssh-agent") == "-34018")
        #expect(try fixture.client(alice, "app-c", "find", "planted", group: "coffer.owner.ssh-agent") == "-34018")
        #expect(try fixture.client(alice, "app-c", "add", "own") == "0")
        #expect(try fixture.coffer(alice, ["passcode", "set"], input: "alice-code\n").status == 0)
        #expect(try fixture.client(alice, "app-c", "add", "planted", group: "coffer.owner.ssh-agent") == "-34018")
    }
}
