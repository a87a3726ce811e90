import Foundation
import KeychainModel
import Prompting

/// How the prompt agent asks the person: the agent's choice of `PasscodePrompter` (pinentry when one is
/// named or on `PATH`, else the terminal) and its words.
struct PasscodeAsker {
    private let prompter: PasscodePrompter

    /// Pinentry when one is named or found on `PATH` (unless `terminal` asks for the terminal), else the terminal.
    init(pinentry: String?, terminal: Bool) throws {
        if let pinentry, !terminal {
            prompter = PasscodePrompter(method: .pinentry(program: pinentry))
        } else if !terminal, let found = PasscodePrompter.pinentryOnPath(environment: ProcessInfo.processInfo.environment) {
            prompter = PasscodePrompter(method: .pinentry(program: found))
        } else if TerminalPasscodeReader.isAvailable {
            prompter = PasscodePrompter(method: .terminal)
        } else {
            throw CLIFailure("no pinentry program and no terminal to ask on: install pinentry or pass --pinentry PROGRAM")
        }
    }

    /// The passcode the person typed; nil when they cancelled. The person takes as long as they like: the
    /// daemon withdraws a prompt whose program leaves.
    func ask(_ message: String, error: String?) throws -> SecretBytes? {
        let prompt = prompter.method == .terminal ? "Keychain passcode:" : "Passcode:"
        let question = PasscodeQuestion(title: "Coffer", description: message, prompt: prompt, error: error, timeout: nil)
        do {
            return try prompter.askPasscode(question)
        } catch .cancelled {
            return nil
        } catch {
            throw CLIFailure(error.description)
        }
    }
}
