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
    /// A pinentry that answers every GETPIN with the contents of `answerFile`, or cancels when they are `CANCEL` (noting each, once answered, in
    /// `answerFile` + `.asked` when that file exists), and writes the groups it runs with (`/proc/self/status`'s `Gid:` line: real, effective,
    /// saved, file system) to `answerFile` + `.gids`.
    static func fakePinentry(in fixture: Fixture, answerFile: String, at path: String? = nil) throws -> String {
        let path = path ?? fixture.program("fake-pinentry")
        let script = """
            #!/bin/sh
            grep '^Gid:' /proc/$$/status > \(answerFile).gids 2>/dev/null
            echo "OK ready"
            while IFS= read -r line; do
              case "$line" in
                GETPIN) if [ "$(cat \(answerFile))" = CANCEL ]; then echo "ERR 83886179 Operation cancelled"
                        else printf 'D %s\\nOK\\n' "$(cat \(answerFile))"; fi
                        [ -w \(answerFile).asked ] && echo asked >> \(answerFile).asked;;
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
        #expect(try fixture.coffer(alice, ["lock"], input: "alice-code\n").status == 0)

        // The person's prompt agent starts first: it proves the passcode, which a script's guesses below must not stop.
        let answer = fixture.root.appendingPathComponent("answer").path
        try "alice-code".write(toFile: answer, atomically: true, encoding: .utf8)
        _ = chmod(answer, 0o644)
        #expect(FileManager.default.createFile(atPath: answer + ".gids", contents: nil) && chmod(answer + ".gids", 0o666) == 0)
        let pinentry = try Self.fakePinentry(in: fixture, answerFile: answer)
        let agent = try ChildProcess(
            ["/usr/sbin/runuser", "-u", alice, "--", "/usr/bin/env", "COFFER_SOCKET=\(fixture.socket)", fixture.cli, "prompt-agent", "--pinentry", pinentry],
            output: .null, errors: .null)
        defer { agent.kill() }
        // Once the agent is registered, a program's request to unlock reaches it, and its pinentry answers.
        #expect(try fixture.unlockThroughAgent(alice) == "0")
        #expect(try fixture.coffer(alice, ["lock"], input: "alice-code\n").status == 0)

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
        #expect(try fixture.client(alice, "app-c", "unlock-prompt", "-") == "0")
        #expect(try fixture.client(alice, "app-c", "find", "kept") == "0 secret-kept")
        #expect(try fixture.coffer(alice, ["status"]).output.contains("lock state: unlocked"))
        // The pinentry ran with none of the trusted front end's group: real, effective and saved are Alice's.
        let gids = try String(contentsOfFile: answer + ".gids", encoding: .utf8).split(whereSeparator: \.isWhitespace).dropFirst()
        let aliceGID = try fixture.gid(alice)
        #expect(Array(gids) == [aliceGID, aliceGID, aliceGID, aliceGID].map { Substring($0) })
    }

    /// The wipe a probe found: a program of the user runs the trusted `coffer prompt-agent` with a pinentry of its own
    /// (named, or first on its `PATH`) that answers the daemon's prompts with its guesses. The agent runs only a
    /// root-owned pinentry in root-owned folders while it holds the trusted group, and says why it will not start.
    @Test func theTrustedPromptAgentRunsOnlyAnOwnersPinentry() throws {
        let fixture = try Fixture()
        try fixture.startDaemon()
        let alice = Self.alice
        let folder = fixture.root.appendingPathComponent("alice-bin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let answer = folder.appendingPathComponent("answer").path
        try "guess".write(toFile: answer, atomically: true, encoding: .utf8)
        let pinentry = try Self.fakePinentry(in: fixture, answerFile: answer, at: folder.appendingPathComponent("pinentry").path)
        _ = try Self.run(["/bin/chown", "-R", alice, folder.path])
        let named = try Self.run(
            [
                "/usr/sbin/runuser", "-u", alice, "--", "/usr/bin/env", "COFFER_SOCKET=\(fixture.socket)", fixture.cli, "prompt-agent",
                "--pinentry", pinentry,
            ])
        #expect(named.status != 0)
        #expect(named.output.contains("its pinentry must be a root-owned program in root-owned folders"))
        #expect(named.output.contains("belongs to uid \(try fixture.uid(alice)), not root"))
        let onPath = try Self.run(
            [
                "/usr/sbin/runuser", "-u", alice, "--", "/usr/bin/env", "COFFER_SOCKET=\(fixture.socket)", "PATH=\(folder.path):/usr/bin:/bin",
                fixture.cli, "prompt-agent",
            ])
        #expect(onPath.status != 0)
        #expect(onPath.output.contains("its pinentry must be a root-owned program in root-owned folders"))
        // A root-owned pinentry in a folder Alice may write is refused too: she could replace it.
        let rootsInHers = folder.appendingPathComponent("root-pinentry").path
        try FileManager.default.copyItem(atPath: pinentry, toPath: rootsInHers)
        #expect(chown(rootsInHers, 0, 0) == 0 && chmod(rootsInHers, 0o755) == 0)
        let inHerFolder = try Self.run(
            [
                "/usr/sbin/runuser", "-u", alice, "--", "/usr/bin/env", "COFFER_SOCKET=\(fixture.socket)", fixture.cli, "prompt-agent",
                "--pinentry", rootsInHers,
            ])
        #expect(inHerFolder.status != 0)
        #expect(inHerFolder.output.contains("\(folder.path) belongs to uid"))
        #expect(!FileManager.default.fileExists(atPath: answer + ".gids"))
    }
}
