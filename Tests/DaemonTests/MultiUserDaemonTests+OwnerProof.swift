import Foundation
import KeychainModel
import Keystore
import Synchronization
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// The owner's calls through the system daemon: any program of the user can run the trusted `coffer`, so
/// locking, starting the prompt agent and choosing a passcode after an erase need what only the person knows
/// (the passcode) or has (the prompt agent that proved it). A probe wiped keychains through exactly these.
extension MultiUserDaemonTests {
    /// A clock in the year 2000 that moves two hours at every reading, so that an offline keystore counts
    /// wrong passcodes without waiting, and the daemon (on the real clock) finds every delay long over.
    private final class PastClock: KeystoreClock {
        private let hours = Mutex(0)
        func now() -> Date {
            Date(
                timeIntervalSince1970: 946_684_800 + Double(
                    hours.withLock {
                        $0 += 2; return $0
                    }) * 3600)
        }
    }

    /// Prepares `user`'s keychain before the daemon opens it: passcode `passcode`, erase after ten failures on,
    /// and `wrongAttempts` wrong passcodes counted (ten erase it), owned by the service user as the daemon's are.
    private static func prepareKeychain(_ fixture: Fixture, _ user: String, passcode: String, wrongAttempts: Int) throws {
        let folder = KeychainFolder(url: fixture.state.appendingPathComponent(try fixture.uid(user), isDirectory: true))
        let keystore = try Keystore.open(folder: folder, clock: PastClock())
        try keystore.setPasscode(SecretBytes(copying: Array(passcode.utf8)), kdf: .insecureForTesting)
        try keystore.setEraseAfterFailedAttempts(true, passcode: SecretBytes(copying: Array(passcode.utf8)))
        for _ in 0..<wrongAttempts {
            _ = try? keystore.unlock(passcode: SecretBytes(copying: Array("not-\(passcode)".utf8)))
        }
        #expect(try run(["/bin/chown", "-R", serviceUser, folder.url.path]).status == 0)
    }

    /// A root-owned pinentry answering with the contents of a file the test changes; returns both paths.
    static func answeringPinentry(_ fixture: Fixture, _ name: String, answer: String) throws -> (pinentry: String, answer: String) {
        let answerFile = fixture.root.appendingPathComponent(name).path
        try answer.write(toFile: answerFile, atomically: true, encoding: .utf8)
        _ = chmod(answerFile, 0o644)
        for suffix in [".gids", ".asked"] {
            #expect(FileManager.default.createFile(atPath: answerFile + suffix, contents: nil) && chmod(answerFile + suffix, 0o666) == 0)
        }
        return (try fakePinentry(in: fixture, answerFile: answerFile, at: fixture.program("pinentry-\(name)")), answerFile)
    }

    static func promptAgent(_ fixture: Fixture, _ user: String, pinentry: String) -> [String] {
        [
            "/usr/sbin/runuser", "-u", user, "--", "/usr/bin/env", "COFFER_SOCKET=\(fixture.socket)", fixture.cli, "prompt-agent",
            "--pinentry", pinentry,
        ]
    }

    /// `coffer lock` by a script with no passcode is refused; the person's passcode locks.
    @Test func lockingTakesTheOwnersPasscode() throws {
        let fixture = try Fixture()
        try fixture.startDaemon()
        let alice = Self.alice
        #expect(try fixture.coffer(alice, ["passcode", "set"], input: "alice-code\n").status == 0)
        let silent = try fixture.coffer(alice, ["lock"])
        #expect(silent.status != 0)
        #expect(silent.output.contains("no keychain passcode on standard input"))
        let guessed = try fixture.coffer(alice, ["lock"], input: "guess\n")
        #expect(guessed.status != 0)
        #expect(guessed.output.contains("wrong passcode (1 failed attempt)"))
        #expect(try fixture.coffer(alice, ["status"]).output.contains("lock state: unlocked"))
        let locked = try fixture.coffer(alice, ["lock"], input: "alice-code\n")
        #expect(locked.status == 0)
        #expect(locked.output.contains("locked"))
        #expect(try fixture.coffer(alice, ["status"]).output.contains("lock state: locked"))
        // Without a passcode there is nothing to prove, and nothing to lock.
        #expect(try fixture.coffer(Self.bob, ["lock"]).status == 0)
    }

    /// The probe's wipe: a program runs the trusted agent with a pinentry it answers (here a root-owned one that
    /// guesses) and answers unlock prompts with guesses that count toward the erase. The agent is not registered
    /// without the passcode, its guesses are charged to the command, never to the keybag, and the person's agent
    /// then starts as before.
    @Test func aProgramsOwnPromptAgentIsNotRegisteredWithoutThePasscode() throws {
        let fixture = try Fixture()
        try fixture.startDaemon()
        let alice = Self.alice
        #expect(try fixture.coffer(alice, ["passcode", "set"], input: "alice-code\n").status == 0)
        #expect(try fixture.coffer(alice, ["passcode", "erase-on-failures", "on"], input: "alice-code\n").status == 0)
        #expect(try fixture.coffer(alice, ["lock"], input: "alice-code\n").status == 0)

        let guessing = try Self.answeringPinentry(fixture, "guess", answer: "guess")
        let refused = try Self.run(Self.promptAgent(fixture, alice, pinentry: guessing.pinentry))
        #expect(refused.status != 0)
        #expect(refused.output.contains("the prompt agent needs the keychain passcode to start: wrong passcode (3 failed attempts in a row)"))
        #expect(try String(contentsOfFile: guessing.answer + ".asked", encoding: .utf8).split(separator: "\n").count == 3)
        // No agent runs, so a program's request to unlock finds none; the keybag counted nothing.
        #expect(try fixture.client(alice, "app-c", "unlock-prompt", "-") == "-25291")
        let status = try fixture.coffer(alice, ["status"]).output
        #expect(status.contains("failed attempts: 0"))
        #expect(status.contains("lock state: locked"))

        let person = try Self.answeringPinentry(fixture, "person", answer: "alice-code")
        let agent = try ChildProcess(Self.promptAgent(fixture, alice, pinentry: person.pinentry), output: .null, errors: .null)
        defer { agent.kill() }
        #expect(try fixture.unlockThroughAgent(alice) == "0")
        // The agent was asked twice: the passcode to start, then the program's unlock.
        #expect(try String(contentsOfFile: person.answer + ".asked", encoding: .utf8).split(separator: "\n").count == 2)
        // While it runs, a second agent is refused even with the passcode.
        let second = try Self.run(Self.promptAgent(fixture, alice, pinentry: person.pinentry))
        #expect(second.status != 0)
        #expect(second.output.contains("a prompt agent already runs for this user"))
    }

    /// After too many wrong passcodes erased the keychain there is no secret left: a program may neither choose
    /// the next passcode (and then the registry) nor start an agent that would.
    @Test func anErasedKeychainTakesNoPasscodeAndNoAgentFromAProgram() throws {
        let fixture = try Fixture()
        try Self.prepareKeychain(fixture, Self.alice, passcode: "alice-code", wrongAttempts: 10)
        try fixture.startDaemon()
        let alice = Self.alice
        let takeover = try fixture.coffer(alice, ["passcode", "set"], input: "attacker-code\n")
        #expect(takeover.status != 0)
        #expect(takeover.output.contains("its new passcode is chosen at the prompt agent that was running then"))
        let pinentry = try Self.answeringPinentry(fixture, "attacker", answer: "attacker-code")
        let agent = try Self.run(Self.promptAgent(fixture, alice, pinentry: pinentry.pinentry))
        #expect(agent.status != 0)
        #expect(agent.output.contains("its new passcode is chosen at the prompt agent that was running then"))
        #expect(try fixture.coffer(alice, ["status"]).output.contains("passcode: not set"))
        let added = try fixture.coffer(alice, ["apps", "add", fixture.program("app-a"), "--app-id", "EVIL.app", "--by-path"], input: "attacker-code\n")
        #expect(added.status != 0)
        #expect(added.output.contains("registering programs needs a keychain passcode"))
    }

    /// The person's agent, registered with the passcode, is the one that sees the erase its wrong answer caused:
    /// it asks the person for the new passcode and sets it, and the new passcode then unlocks.
    @Test func thePersonsAgentChoosesTheNewPasscodeAfterAnErase() throws {
        let fixture = try Fixture()
        try Self.prepareKeychain(fixture, Self.alice, passcode: "alice-code", wrongAttempts: 9)
        try fixture.startDaemon()
        let alice = Self.alice
        let person = try Self.answeringPinentry(fixture, "person", answer: "alice-code")
        let agent = try ChildProcess(Self.promptAgent(fixture, alice, pinentry: person.pinentry), output: .null, errors: .null)
        defer { agent.kill() }
        for _ in 0..<400 where (try? String(contentsOfFile: person.answer + ".asked", encoding: .utf8))?.isEmpty ?? true {
            usleep(25_000)
        }
        // The agent proved the passcode (charged to the command, so the keybag's nine failures stay); the person
        // now mistypes at a program's prompt, the tenth failure, and then types the same text as the new passcode.
        try "new-code-1".write(toFile: person.answer, atomically: false, encoding: .utf8)
        #expect(try fixture.unlockThroughAgent(alice) == "-25293")  // errSecAuthFailed: erased
        var status = ""
        for _ in 0..<200 {
            status = try fixture.coffer(alice, ["status"]).output
            if status.contains("passcode: set") { break }
            usleep(50_000)
        }
        #expect(status.contains("passcode: set"))
        #expect(try fixture.coffer(alice, ["lock"], input: "new-code-1\n").status == 0)
        #expect(try fixture.coffer(alice, ["unlock"], input: "alice-code\n").status != 0)
        #expect(try fixture.coffer(alice, ["unlock"], input: "new-code-1\n").status == 0)
    }
}
