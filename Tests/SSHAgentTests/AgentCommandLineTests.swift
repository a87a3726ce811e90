import Foundation
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// `coffer ssh-agent`'s command line as scripts use `ssh-agent`'s: `eval` output, a background agent, `-k`.
@Suite(.timeLimit(.minutes(2)))
struct AgentCommandLineTests {
    @Test func theBackgroundAgentPrintsItsVariablesAndMinusKStopsIt() throws {
        let harness = try AgentHarness()
        harness.stopAgent()
        let started = try harness.coffer(["ssh-agent", "-s"])
        #expect(started.status == 0, "\(started.errors)")
        let lines = started.output.split(separator: "\n").map(String.init)
        try #require(lines.count == 3)
        let socket = try #require(lines[0].firstMatch(of: /^SSH_AUTH_SOCK=(\S+); export SSH_AUTH_SOCK;$/)?.1)
        let pid = try #require(lines[1].firstMatch(of: /^SSH_AGENT_PID=(\d+); export SSH_AGENT_PID;$/)?.1).description
        #expect(lines[2] == "echo Agent pid \(pid);")
        let folder = (String(socket) as NSString).deletingLastPathComponent
        var status = stat()
        #expect(stat(String(socket), &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(stat(folder, &status) == 0 && status.st_mode & 0o777 == 0o700)
        let listed = try harness.run(["ssh-add", "-l"], extra: ["SSH_AUTH_SOCK": String(socket)])
        #expect(listed.output.contains("no identities"), "\(listed.errors)")

        let stopped = try harness.run([AgentHarness.executable("coffer"), "ssh-agent", "-k", "-c"], extra: ["SSH_AGENT_PID": pid])
        #expect(stopped.output == "unsetenv SSH_AUTH_SOCK;\nunsetenv SSH_AGENT_PID;\necho Agent pid \(pid) killed;\n")
        var gone = false
        for _ in 0..<500 where !gone {
            gone = !FileManager.default.fileExists(atPath: folder)
            usleep(10_000)
        }
        #expect(gone, "the agent removes its socket and its folder when it stops")
    }

    @Test func cShellSyntaxInTheForeground() throws {
        let harness = try AgentHarness()
        harness.stopAgent()
        let agent = try ChildProcess(
            [AgentHarness.executable("coffer"), "ssh-agent", "-D", "-c", "-a", harness.socket], environment: harness.environment,
            output: .pipe, errors: .null)
        #expect(agent.nextOutputLine(timeout: .seconds(30)) == "setenv SSH_AUTH_SOCK \(harness.socket);")
        #expect(agent.nextOutputLine(timeout: .seconds(5)) == "echo Agent pid \(agent.pid);")
        #expect(agent.terminate().succeeded)
    }
}

extension AgentCommandLineTests {
    @Test func minusTGivesKeysAddedWithoutALifetimeOne() throws {
        let harness = try AgentHarness()
        harness.stopAgent()
        let agent = try ChildProcess(
            [AgentHarness.executable("coffer"), "ssh-agent", "-D", "-t", "2", "-a", harness.socket], environment: harness.environment,
            output: .pipe, errors: .null)
        #expect(agent.nextOutputLine(timeout: .seconds(30))?.hasPrefix("SSH_AUTH_SOCK=") == true)
        let key = try harness.keygen("key", type: "ecdsa", comment: "default-lifetime")
        #expect(try harness.run(["ssh-add", key]).status == 0)
        #expect(try harness.run(["ssh-add", "-l"]).output.contains("default-lifetime"))
        usleep(3_100_000)
        #expect(try harness.run(["ssh-add", "-l"]).output.contains("no identities"))
        #expect(agent.terminate().succeeded)
    }
}

extension AgentCommandLineTests {
    @Test func aSocketSystemdPassesIsServed() throws {
        let harness = try AgentHarness()
        harness.stopAgent()
        // systemd-socket-activate (systemd's tool) listens, then starts the agent with the socket as descriptor 3.
        let activator = try ChildProcess(
            ["/usr/bin/systemd-socket-activate", "-l", harness.socket, AgentHarness.executable("coffer"), "ssh-agent", "-D"],
            environment: harness.environment, output: .null, errors: .null)
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: harness.socket) { usleep(10_000) }
        let key = try harness.keygen("key", type: "ecdsa", comment: "activated")
        let added = try harness.run(["ssh-add", key])
        #expect(added.status == 0, "\(added.errors)")
        #expect(try harness.run(["ssh-add", "-l"]).output.contains("activated (ECDSA)"))
        #expect(activator.terminate().succeeded)
    }
}

extension AgentCommandLineTests {
    @Test func aSecondAgentOnTheSameSocketFailsAndLeavesTheFirstServing() throws {
        let harness = try AgentHarness()
        let second = try harness.coffer(["ssh-agent", "-D", "-a", harness.socket])
        #expect(second.status != 0)
        #expect(second.errors.contains("in use"), "\(second.errors)")
        #expect(try harness.run(["ssh-add", "-l"]).output.contains("no identities"))
    }
}
