import Foundation
import KeychainModel
import Prompting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Asking through a pinentry program: the Assuan conversation, the person's answers, and a program that
/// misbehaves, which must never hold the caller nor outlive the question.
@Suite("Asking through pinentry", .timeLimit(.minutes(10)))
struct PinentryPromptTests {
    private static func question(error: String? = nil, timeout: Duration? = .seconds(30)) -> PasscodeQuestion {
        PasscodeQuestion(
            title: "Coffer", description: "example-app asks to read “mail password”", prompt: "Passcode:", error: error,
            timeout: timeout)
    }

    private static func ask(_ pinentry: ScriptedPinentry, _ question: PasscodeQuestion = question()) -> Result<SecretBytes, PromptFailure> {
        let prompter = PasscodePrompter(method: .pinentry(program: pinentry.path))
        return Result { () throws(PromptFailure) in try prompter.askPasscode(question) }
    }

    private static func bytes(_ secret: SecretBytes) -> [UInt8] { secret.withUnsafeBytes { Array($0) } }

    @Test func theRightAnswerIsThePasscode() throws {
        let pinentry = try ScriptedPinentry(getPin: .answer("1234"))
        defer { pinentry.remove() }
        let passcode = try Self.ask(pinentry).get()
        #expect(Self.bytes(passcode) == Array("1234".utf8))
        #expect(pinentry.wasReaped)
    }

    @Test func escapedBytesInTheAnswerAreDecoded() throws {
        // Assuan escapes "%", CR and LF in a D line (and may escape any byte): "a%25b%0Ac%0d" is "a%b\nc\r".
        let pinentry = try ScriptedPinentry(getPin: .answer("a%25b%0Ac%0d%C3%A9"))
        defer { pinentry.remove() }
        let passcode = try Self.ask(pinentry).get()
        #expect(Self.bytes(passcode) == Array("a%b\nc\ré".utf8))
        #expect(pinentry.wasReaped)
    }

    @Test func anEmptyAnswerIsAnEmptyPasscode() throws {
        let pinentry = try ScriptedPinentry(getPin: .answer(""))
        defer { pinentry.remove() }
        #expect(try Self.ask(pinentry).get().isEmpty)
    }

    @Test func theQuestionReachesPinentryEscaped() throws {
        let pinentry = try ScriptedPinentry(getPin: .answer("1234"))
        defer { pinentry.remove() }
        let question = PasscodeQuestion(
            title: "Coffer", description: "100% sure?\nexample-app asks", prompt: "Passcode:", error: "wrong passcode",
            timeout: .milliseconds(2500))
        _ = try Self.ask(pinentry, question).get()
        let commands = pinentry.commands
        #expect(commands.contains("SETTITLE Coffer"))
        #expect(commands.contains("SETDESC 100%25 sure?%0Aexample-app asks"))
        #expect(commands.contains("SETPROMPT Passcode:"))
        #expect(commands.contains("SETERROR wrong passcode"))
        // Whole seconds, rounded up.
        #expect(commands.contains("SETTIMEOUT 3"))
        #expect(commands.last == "BYE")
    }

    @Test func withoutATimeoutPinentryIsToldNone() throws {
        let pinentry = try ScriptedPinentry(getPin: .answer("1234"))
        defer { pinentry.remove() }
        _ = try Self.ask(pinentry, Self.question(timeout: nil)).get()
        #expect(!pinentry.commands.contains { $0.hasPrefix("SETTIMEOUT") })
        #expect(!pinentry.commands.contains { $0.hasPrefix("SETERROR") })
    }

    @Test func thePersonCancelling() throws {
        let pinentry = try ScriptedPinentry(getPin: .cancel)
        defer { pinentry.remove() }
        #expect(throws: PromptFailure.cancelled) { try Self.ask(pinentry).get() }
        #expect(pinentry.wasReaped)
    }

    @Test func pinentrysOwnTimeoutIsTimedOut() throws {
        let pinentry = try ScriptedPinentry(getPin: .reportTimeout)
        defer { pinentry.remove() }
        #expect(throws: PromptFailure.timedOut) { try Self.ask(pinentry).get() }
        #expect(pinentry.wasReaped)
    }

    @Test func aProgramThatNeverAnswersIsStoppedPastTheDeadline() throws {
        let pinentry = try ScriptedPinentry(getPin: .neverAnswer)
        defer { pinentry.remove() }
        let started = ContinuousClock.now
        #expect(throws: PromptFailure.timedOut) { try Self.ask(pinentry, Self.question(timeout: .seconds(1))).get() }
        let elapsed = ContinuousClock.now - started
        // The person's second, a grace for the program to report its own time-out, and the stop.
        #expect(elapsed >= .seconds(1))
        #expect(elapsed < .seconds(6), "took \(elapsed)")
        #expect(pinentry.wasReaped)
    }

    @Test func aProgramThatDoesNotExistIsUnavailableAndNamed() throws {
        let missing = "/nonexistent-\(UUID().uuidString)/pinentry"
        let prompter = PasscodePrompter(method: .pinentry(program: missing))
        let outcome = Result { () throws(PromptFailure) in try prompter.askPasscode(Self.question()) }
        guard case .failure(.unavailable(let reason)) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(reason.contains(missing))
        #expect(reason.contains("No such file or directory"))
    }

    @Test func aProgramThatExitsMidConversationIsUnavailable() throws {
        let pinentry = try ScriptedPinentry(getPin: .exit)
        defer { pinentry.remove() }
        guard case .failure(.unavailable(let reason)) = Self.ask(pinentry) else {
            Issue.record("expected unavailable")
            return
        }
        #expect(reason == "\(pinentry.path) closed the conversation")
        #expect(pinentry.wasReaped)
    }

    @Test func aProgramThatStopsReadingIsUnavailableAndRaisesNoSigpipe() throws {
        // The program closes its standard input before it greets: the next command written meets a pipe no
        // one reads (EPIPE), which must be a failure, not a SIGPIPE that ends the caller.
        let pinentry = try ScriptedPinentry(getPin: .answer("1234"), beforeGreeting: "exec 0<&-")
        defer { pinentry.remove() }
        #expect(throws: PromptFailure.unavailable("\(pinentry.path) closed the conversation")) { try Self.ask(pinentry).get() }
        #expect(pinentry.wasReaped)
    }

    @Test func aProgramThatIsNotPinentryIsUnavailable() throws {
        let pinentry = try ScriptedPinentry(getPin: .answer("1234"))
        defer { pinentry.remove() }
        // It greets with an error, as pinentry does when it cannot open its display.
        let program = try pinentry.addProgram(named: "broken", body: "#!/bin/sh\necho 'ERR 83886360 No display <Pinentry>'\n")
        let prompter = PasscodePrompter(method: .pinentry(program: program))
        #expect(throws: PromptFailure.unavailable("\(program) answered ERR 83886360 No display <Pinentry>")) {
            try prompter.askPasscode(Self.question())
        }
    }

    @Test func aLineLongerThanAssuansLimitIsAProtocolError() throws {
        let pinentry = try ScriptedPinentry(getPin: .answer(String(repeating: "x", count: 1200)))
        defer { pinentry.remove() }
        #expect(throws: PromptFailure.unavailable("\(pinentry.path) sent a line longer than Assuan's 1000 bytes")) {
            try Self.ask(pinentry).get()
        }
        #expect(pinentry.wasReaped)
    }

    @Test func failuresNeverCarryThePasscode() throws {
        let pinentry = try ScriptedPinentry(getPin: .answer("s3cr3t-passcode"))
        defer { pinentry.remove() }
        // A second D line would be joined; an error after the data must not echo it.
        let program = try pinentry.addProgram(
            named: "erring",
            body: """
                #!/bin/sh
                echo OK
                while IFS= read -r line; do
                  case "$line" in
                    GETPIN) printf 'D s3cr3t-passcode\\nERR 83886081 General error <Pinentry>\\n';;
                    *) echo OK;;
                  esac
                done
                """)
        let prompter = PasscodePrompter(method: .pinentry(program: program))
        let outcome = Result { () throws(PromptFailure) in try prompter.askPasscode(Self.question()) }
        guard case .failure(let failure) = outcome else {
            Issue.record("expected a failure")
            return
        }
        #expect(!failure.description.contains("s3cr3t"))
        #expect(!"\(failure)".contains("s3cr3t"))
    }
}
