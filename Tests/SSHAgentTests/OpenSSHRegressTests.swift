import Foundation
import Testing
import TestProcesses

/// OpenSSH's own regression scripts for agents, from Debian's `openssh-tests` (the OpenSSH Debian ships), run
/// unchanged with `coffer ssh-agent` as their `ssh-agent`: `agent.sh` (keys and certificates of every type, logins
/// through the agent and through forwarding, deletion), `agent-timeout.sh` (`ssh-add -t`), `sshsig.sh`
/// (`ssh-keygen -Y` signatures with agent keys and certificates) and `agent-restrict.sh` (`ssh-add -h` destination
/// constraints over forwarding hops, `@cert-authority` hosts included).
///
/// The scripts try every key type `ssh -Q key-plain` names, DSA among them, which Coffer refuses on purpose (the
/// agent's failure answer, `AgentOpenSSHTests.dsaKeysAreRefused`). So each script's failures must be exactly those
/// its DSA cases report, in its own words, and nothing else: every other case of every script passes, and
/// `agent-timeout.sh` finds every other key type listed. Each agent a script starts gets a keychain of its own, as
/// each `ssh-agent` holds its own keys.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct OpenSSHRegressTests {
    @Test(arguments: ["agent", "agent-timeout", "sshsig", "agent-restrict"])
    func openSSHsAgentScriptFailsOnlyItsDSACases(script: String) throws {
        try DebianPackages.ensureInstalled(["openssh-tests", "openssh-server", "openssh-client"])
        let run = try RegressRun()
        defer { run.remove() }
        let outcome = try run.run(script: script)
        let reported = outcome.outputText.replacingOccurrences(of: run.folder + "/obj/", with: "OBJ/")
            .split(separator: "\n").map(String.init)
        let expected = try Self.dsaFailures(of: script)
        #expect(reported == expected, "\(outcome.errorText)\n\(run.failureLog)")
        #expect(outcome.status == (expected.isEmpty ? 0 : 1))
    }

    /// What `script` prints (its progress lines silenced) when its DSA cases fail and nothing else does: its `fail`
    /// messages, in order, and its last line; nothing when it has no DSA case.
    private static func dsaFailures(of script: String) throws -> [String] {
        switch script {
        case "agent":
            // DSA added to each of the two agents, the login with it, and adding it again.
            return [
                "ssh-add failed exit code 0", "ssh-add failed exit code 0", "ssh connect with failed (exit code 255)",
                "ssh-add failed exit code 1", "failed simple agent test",
            ]
        case "agent-timeout":
            // The DSA key is not added; every other type is, and is listed.
            let types = try ChildProcess.run(["/usr/bin/ssh", "-Q", "key-plain"]).outputText.split(separator: "\n").filter { !$0.hasPrefix("sk-") }
            return ["ssh-add did succeed exit code 0", "ssh-add -l did not return \(types.count) keys: \(types.count - 1)", "failed agent timeout test"]
        case "sshsig":
            // Signing through the agent with the DSA key and with its certificate.
            return [
                "ssh-add failed", "ssh-agent based sign using OBJ/ssh-dss.pub failed", "failed to check valid signature for ssh-dss key",
                "ssh-add failed", "ssh-agent based sign using OBJ/ssh-dss-cert.pub failed",
                "failed to check valid signature for ssh-dss-cert.pub key", "failed sshsig",
            ]
        default:
            return []
        }
    }
}

/// A copy of OpenSSH's regress folder in a scratch folder, with a wrapper standing in for `ssh-agent`: Coffer's.
private struct RegressRun {
    let folder: String

    init() throws {
        // sshd run as root wants its privilege separation folder, which systemd makes at boot and a fresh container
        // does not have.
        if getuid() == 0 { mkdir("/run/sshd", 0o755) }
        var template = Array("/tmp/coffer-regress-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessFailure("mkdtemp failed") }
        folder = String(cString: made)
        let copied = try ChildProcess.run(["/bin/cp", "-a", "/usr/lib/openssh/regress", folder + "/regress"])
        guard copied.status == 0 else { throw HarnessFailure("cannot copy the regress folder: \(copied.errorText)") }
        try FileManager.default.createDirectory(atPath: folder + "/obj", withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: folder + "/keychains", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        // Each agent started (`-s`, `-d`, `-D`) gets its own keychain; `-k` needs none.
        try Self.writeScript(
            folder + "/ssh-agent",
            """
            #!/bin/sh
            COFFER_HOME="$(mktemp -d "\(folder)/keychains/keychain-XXXXXX")" || exit 1
            export COFFER_HOME
            exec \(AgentHarness.executable("coffer")) ssh-agent "$@"
            """)
    }

    private static func writeScript(_ path: String, _ text: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data((text + "\n").utf8), attributes: [.posixPermissions: 0o755]) else {
            throw HarnessFailure("cannot write \(path)")
        }
    }

    /// Runs `script`.sh through OpenSSH's `test-exec.sh`, as the regress Makefile's `t-exec` target does.
    func run(script: String) throws -> ChildProcess.Outcome {
        let environment = [
            "PATH": "\(folder):/usr/sbin:/usr/bin:/sbin:/bin", "HOME": folder, "TMPDIR": folder,
            "TEST_SHELL": "sh", "TEST_SSH_SSH": "/usr/bin/ssh", "TEST_SSH_SSHD": "/usr/sbin/sshd",
            "TEST_SSH_SSHAGENT": folder + "/ssh-agent", "TEST_SSH_SSHADD": "/usr/bin/ssh-add",
            "TEST_SSH_SSHKEYGEN": "/usr/bin/ssh-keygen", "TEST_SSH_SFTPSERVER": "/usr/lib/openssh/sftp-server",
            "TEST_SSH_UNSAFE_PERMISSIONS": "1", "TEST_SSH_ECC": "yes", "TEST_SSH_QUIET": "yes", "SUDO": "", "LC_ALL": "C",
        ]
        // In the scratch folder: some scripts write files relative to where they run (agent-restrict.sh's sshd_proxy).
        return try ChildProcess.run(
            ["/bin/sh", "-c", "cd \"$1\" && exec /bin/sh \"$1/regress/test-exec.sh\" \"$1/obj\" \"$1/regress/$2.sh\"", "sh", folder, script],
            environment: environment, timeout: .seconds(540))
    }

    /// What the scripts logged about their failures (`failed-regress.log`, `failed-ssh.log`, `failed-sshd.log`).
    var failureLog: String {
        ["failed-regress.log", "failed-ssh.log", "failed-sshd.log"].compactMap { name in
            (try? String(contentsOfFile: "\(folder)/obj/\(name)", encoding: .utf8)).map { "== \(name)\n\($0.suffix(8000))" }
        }.joined(separator: "\n")
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }
}
