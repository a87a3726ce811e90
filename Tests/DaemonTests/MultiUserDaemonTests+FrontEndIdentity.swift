import Foundation
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// The front ends that serve other programs run as the user, without `CAP_SYS_PTRACE`, and a program registered by
/// identity group runs setgid, so the kernel hides its `/proc/PID/exe` from them: they recognise it from the group
/// the kernel captured at connect alone. The README recommends that registration; it used to leave such a program
/// unable to use its own program-limited SSH key.
extension MultiUserDaemonTests {
    @Test func aProgramRegisteredByIdentityGroupUsesItsOwnLimitedAgentKey() throws {
        try DebianPackages.ensureInstalled(["openssh-client"])
        let fixture = try Fixture()
        try fixture.startDaemon()
        let alice = Self.alice
        #expect(try fixture.coffer(alice, ["passcode", "set"], input: "alice-code\n").status == 0)
        // The registered program is a copy of ssh-add, installed root-owned and setgid to a group of its own.
        let registered = fixture.program("ssh-add-app")
        try FileManager.default.copyItem(atPath: "/usr/bin/ssh-add", toPath: registered)
        _ = chmod(registered, 0o755)
        try fixture.registerByIdentityGroup(alice, "ssh-add-app", appID: "TEAM.ssh-add", passcode: "alice-code")

        let home = fixture.root.appendingPathComponent("alice-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        _ = try Self.run(["/bin/chown", alice, home.path])
        let socket = home.appendingPathComponent("agent.sock").path
        func asAlice(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
            try Self.run(
                [
                    "/usr/sbin/runuser", "-u", alice, "--", "/usr/bin/env", "HOME=\(home.path)", "SSH_AUTH_SOCK=\(socket)",
                    "COFFER_SOCKET=\(fixture.socket)",
                ] + arguments, input: input)
        }
        // The agent's keys are the owner's: it reads the passcode that proves it from its standard input (no terminal).
        let agent = try ChildProcess(
            [
                "/usr/sbin/runuser", "-u", alice, "--", "/bin/sh", "-c",
                "echo alice-code | exec /usr/bin/env HOME=\(home.path) COFFER_SOCKET=\(fixture.socket) \(fixture.cli) ssh-agent -D -s -a \(socket)",
            ],
            output: .pipe, errors: .null)
        defer { agent.kill() }
        #expect(agent.nextOutputLine(timeout: .seconds(30))?.hasPrefix("SSH_AUTH_SOCK=") == true)

        let key = home.appendingPathComponent("id_limited").path
        #expect(try asAlice(["/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "limited@test", "-f", key]).status == 0)
        #expect(try asAlice(["/usr/bin/ssh-add", key]).status == 0)
        let fingerprint = try #require(try asAlice(["/usr/bin/ssh-keygen", "-lf", key + ".pub"]).output.split(separator: " ").dropFirst().first)
        let limited = try asAlice([fixture.cli, "ssh-agent", "limit", String(fingerprint), "--program", registered], input: "alice-code\n")
        #expect(limited.status == 0, "\(limited.output)")
        #expect(limited.output.contains("TEAM.ssh-add"))

        // The registered program, setgid and not dumpable, lists its key; ssh-add itself, another program, does not.
        let listedByItsProgram = try asAlice([registered, "-l"])
        #expect(listedByItsProgram.status == 0, "\(listedByItsProgram.output)")
        #expect(listedByItsProgram.output.contains("\(fingerprint) limited@test (ED25519)"))
        let listedByAnother = try asAlice(["/usr/bin/ssh-add", "-l"])
        #expect(listedByAnother.output.contains("The agent has no identities."))
    }
}
