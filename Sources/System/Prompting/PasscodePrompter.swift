import KeychainModel

/// Who asks the person for a passcode: the terminal, or a pinentry program.
///
/// The command-line prompt agent and the embedded keychain (an app prompting in its own process) ask the
/// same way. Asking blocks the calling thread until the person answers, cancels or runs out of time; call
/// it from a thread that may wait, never from the cooperative pool.
public struct PasscodePrompter: Sendable, Hashable {
    /// How the person is asked.
    public enum Method: Sendable, Hashable {
        /// On the controlling terminal (`/dev/tty`), with echo off.
        case terminal
        /// Through the pinentry program at this path, over its Assuan protocol.
        case pinentry(program: String)
    }

    /// How the person is asked.
    public let method: Method

    /// A prompter that asks by `method`.
    public init(method: Method) {
        self.method = method
    }

    /// Asks once and returns what the person typed.
    ///
    /// On the terminal, the question's error (when asking again) and description are written above its
    /// prompt; the title is not shown. Through pinentry, every part is sent, with `SETTIMEOUT` when the
    /// question has a timeout, and the conversation is bounded a little past it, so that a program that
    /// stops answering is stopped rather than holding the caller.
    public func askPasscode(_ question: PasscodeQuestion) throws(PromptFailure) -> SecretBytes {
        switch method {
        case .terminal:
            return try askOnTerminal(question)
        case .pinentry(let program):
            return try PinentryConversation(program: program).ask(question)
        }
    }

    func askOnTerminal(_ question: PasscodeQuestion) throws(PromptFailure) -> SecretBytes {
        let note = question.error.map { "\($0)\n" } ?? ""
        let prompt = question.prompt.last?.isWhitespace == true ? question.prompt : question.prompt + " "
        do {
            return try TerminalPasscodeReader().read(prompt: prompt, notice: "\n\(note)\(question.description)\n", timeout: question.timeout)
        } catch .endOfInput {
            throw .cancelled
        } catch .timedOut {
            throw .timedOut
        } catch let failure {
            throw .unavailable(failure.description)
        }
    }
}
