import Foundation
import Testing
import TestProcesses

/// `ssh-copy-id` through the agent: it lists the agent's keys (`ssh-add -L`), logs in with one the server already
/// knows and appends every key to the server's `~/.ssh/authorized_keys`; the server's sessions get a `HOME` of their
/// own, so the test never touches the user's real `~/.ssh`.
@Suite(.timeLimit(.minutes(5)))
struct AgentCopyIDTests {
    @Test(arguments: AgentTransport.allCases)
    func sshCopyIDInstallsAKeyThatNeverLeavesWhichThenLogsInAlone(transport: AgentTransport) throws {
        try DebianPackages.ensureInstalled(["openssh-server"])
        let harness = try AgentHarness(transport: transport)
        let known = try harness.keygen("known", type: "ecdsa", comment: "already-authorized")
        #expect(try harness.run(["ssh-add", known]).status == 0)
        let kept = try harness.coffer(["create-key", "--ssh", "-t", "ed25519", "-l", "copied-by-ssh-copy-id"])
        #expect(kept.status == 0, "\(kept.errors)")
        let server = try PrivateSSHServer(
            harness: harness, authorizedKey: try String(contentsOfFile: known + ".pub", encoding: .utf8), privateHome: true)
        let home = try #require(server.home)
        let options = [
            "-o", "IdentityAgent=\(harness.socket)", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
        ]
        // Only once the session's HOME is the server's own folder may ssh-copy-id write to it.
        let sessionHome = try harness.run(
            ["ssh", "-F", "/dev/null"] + options + ["-p", String(server.port), "\(server.user)@127.0.0.1", "printf %s \"$HOME\""])
        try #require(sessionHome.status == 0, "\(sessionHome.errors)")
        try #require(sessionHome.output == home, "the server's sessions must not use the real home folder")

        // ssh-copy-id keeps its temporary files under the local ~/.ssh (the harness's HOME).
        try FileManager.default.createDirectory(atPath: harness.path(".ssh"), withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let copied = try harness.run(["ssh-copy-id", "-f", "-p", String(server.port)] + options + ["\(server.user)@127.0.0.1"])
        #expect(copied.status == 0, "\(copied.errors)")
        #expect(copied.output.contains("Number of key(s) added: 2"), "\(copied.output)\n\(copied.errors)")
        let installed = try String(contentsOfFile: home + "/.ssh/authorized_keys", encoding: .utf8)
        #expect(installed.contains(kept.output.trimmingCharacters(in: .whitespacesAndNewlines)), "\(installed)")

        // The key that was already authorized leaves the agent: the copied key logs in alone.
        #expect(try harness.run(["ssh-add", "-d", known + ".pub"]).status == 0)
        #expect(try harness.run(["ssh-add", "-L"]).output == kept.output)
        let login = try harness.run(server.loginCommand(agent: harness.socket))
        #expect(login.status == 0, "\(login.errors)")
        #expect(login.output == "logged in\n")
    }
}
