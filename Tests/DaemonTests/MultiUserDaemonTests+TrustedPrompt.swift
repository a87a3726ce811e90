import Foundation
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// Passcodes reach the system daemon only from trusted front ends, as on iOS: the `coffer` command
/// installed setgid to its own group, and its prompt agent. A program's guesses delay only that program
/// and never erase; the person, at the prompt, still unlocks.
extension MultiUserDaemonTests {
    /// A pinentry that answers every GETPIN with the contents of `answerFile`.
    private static func fakePinentry(in fixture: Fixture, answerFile: String) throws -> String {
        let path = fixture.program("fake-pinentry")
        let script = """
            #!/bin/sh
            echo "OK ready"
            while IFS= read -r line; do
              case "$line" in
                GETPIN) printf 'D %s\\nOK\\n' "$(cat \(answerFile))";;
                BYE) echo OK; exit 0;;
                *) echo OK;;
              esac
            done
            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        _ = chmod(path, 0o755)
        return path
    }

    @Test func onlyTrustedFrontEndsHandleThePasscodeAndAScriptsGuessesEraseNothing() throws {
        let fixture = try Fixture()
        try fixture.startDaemon()
        let alice = Self.alice
        #expect(try fixture.coffer(alice, ["passcode", "set"], input: "alice-code\n").status == 0)
        #expect(try fixture.coffer(alice, ["passcode", "erase-on-failures", "on"], input: "alice-code\n").status == 0)
        #expect(try fixture.client(alice, "app-c", "add", "kept") == "0")

        // A program that is not a trusted front end may not send a passcode, nor lock.
        #expect(try fixture.client(alice, "app-c", "unlock", "-") == "-34018")
        #expect(try fixture.client(alice, "app-c", "lock", "-") == "-34018")
        #expect(try fixture.coffer(alice, ["lock"]).status == 0)

        // A script of the user guesses through the trusted command, a new process each time: its guesses
        // are charged to that command, delayed after the fifth, and never reach the erase.
        var outputs: [String] = []
        for guess in 1...12 {
            let attempt = try fixture.coffer(alice, ["unlock"], input: "guess-\(guess)\n")
            #expect(attempt.status != 0)
            outputs.append(attempt.output)
        }
        #expect(outputs[0].contains("wrong passcode (1 failed attempt)"))
        #expect(outputs[4].contains("wrong passcode (5 failed attempts in a row); wait 60 seconds"))
        #expect(outputs[11].contains("too many wrong passcodes"))
        let status = try fixture.coffer(alice, ["status"]).output
        #expect(status.contains("passcode: set"))
        #expect(status.contains("failed attempts: 0"))
        #expect(status.contains("erase after 10 failed attempts: on"))

        // The person still unlocks, through the prompt agent, when a program asks.
        let answer = fixture.root.appendingPathComponent("answer").path
        try "alice-code".write(toFile: answer, atomically: true, encoding: .utf8)
        _ = chmod(answer, 0o644)
        let pinentry = try Self.fakePinentry(in: fixture, answerFile: answer)
        let agent = try ChildProcess(
            ["/usr/sbin/runuser", "-u", alice, "--", "/usr/bin/env", "COFFER_SOCKET=\(fixture.socket)", fixture.cli, "prompt-agent", "--pinentry", pinentry],
            output: .null, errors: .null)
        defer { agent.kill() }
        var unlocked = ""
        for _ in 0..<100 {
            unlocked = try fixture.client(alice, "app-c", "unlock-prompt", "-")
            if unlocked == "0" { break }
            usleep(50_000)  // until the agent has registered
        }
        #expect(unlocked == "0")
        #expect(try fixture.client(alice, "app-c", "find", "kept") == "0 secret-kept")
        #expect(try fixture.coffer(alice, ["status"]).output.contains("lock state: unlocked"))
    }
}
