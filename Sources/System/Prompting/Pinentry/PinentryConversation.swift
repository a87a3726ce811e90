import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// Asks for a passcode through a pinentry program (GnuPG's dialog: `pinentry-gnome3`, `pinentry-curses`…),
/// speaking its Assuan protocol on the program's standard input and output.
///
/// The passcode arrives in `D` lines, percent-escaped; it is decoded straight into ``SecretBytes`` and the
/// bytes read are zeroized, so it never becomes a Swift string. The program is always reaped before this
/// returns: told `BYE` and left to exit, or, when the conversation ran past its deadline, stopped.
struct PinentryConversation {
    /// How long the conversation may run past the person's time to answer: for the program to start, and
    /// to report its own time-out before ours ends it.
    static let grace = Duration.seconds(2)

    /// The path of the pinentry program.
    let program: String

    /// Shows the question as a `CONFIRM` dialog; returns when the person allows, throws when they refuse.
    func confirm(_ question: PasscodeQuestion) throws(PromptFailure) {
        _ = try run(question) { session throws(PromptFailure) -> SecretBytes in
            try session.command("CONFIRM")
            return SecretBytes(copying: [UInt8]())
        }
    }

    /// Shows the question and returns what the person typed.
    func ask(_ question: PasscodeQuestion) throws(PromptFailure) -> SecretBytes {
        try run(question) { session throws(PromptFailure) -> SecretBytes in try session.getPin() }
    }

    /// Starts the program, sets the question up, runs `final` (the dialog), and always ends the program.
    private func run(
        _ question: PasscodeQuestion, _ final: (AssuanSession) throws(PromptFailure) -> SecretBytes
    ) throws(PromptFailure) -> SecretBytes {
        let deadline = Deadline.after(question.timeout.map { $0 + Self.grace })
        let child = try SpawnedProgram(path: program)
        let session = AssuanSession(program: program, input: child.fromProgram, output: child.toProgram, deadline: deadline)
        do {
            try converse(session, question)
            let passcode = try final(session)
            session.sayGoodbye()
            child.finish(grace: .seconds(1))
            return passcode
        } catch {
            if deadline.hasPassed {
                child.stop()
            } else {
                session.sayGoodbye()
                child.finish(grace: .seconds(1))
            }
            throw error
        }
    }

    private func converse(_ session: AssuanSession, _ question: PasscodeQuestion) throws(PromptFailure) {
        try session.expectOK()
        if let terminal = Self.terminalName() { try session.command("OPTION ttyname=\(terminal)") }
        try session.command("SETTITLE \(AssuanSession.escape(question.title))")
        try session.command("SETDESC \(AssuanSession.escape(question.description))")
        try session.command("SETPROMPT \(AssuanSession.escape(question.prompt))")
        if let error = question.error { try session.command("SETERROR \(AssuanSession.escape(error))") }
        if let timeout = question.timeout { try session.command("SETTIMEOUT \(Self.wholeSeconds(timeout))") }
    }

    /// `timeout` in whole seconds, rounded up, at least 1 (pinentry reads 0 as "no time-out").
    static func wholeSeconds(_ timeout: Duration) -> Int64 {
        let (seconds, attoseconds) = timeout.components
        return max(1, seconds + (attoseconds > 0 ? 1 : 0))
    }

    /// The terminal on standard input, for curses pinentries; nil when standard input is not one.
    private static func terminalName() -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        guard ttyname_r(STDIN_FILENO, &buffer, buffer.count) == 0 else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
