import Foundation
import KeychainModel
import Prompting
import Synchronization

/// Asks the person before each use of a key added with `ssh-add -c`: through pinentry (`COFFER_PINENTRY`, else
/// `pinentry` on `PATH`), else on the agent's terminal. One question is shown at a time; no answer within
/// ``timeout`` refuses.
public final class AgentConfirmation: Sendable {
    /// How long the person has to answer.
    public static let timeout = Duration.seconds(60)

    private let prompter: PasscodePrompter?
    private let oneAtATime = Mutex(())

    /// Confirmation through `prompter`; with none, every use of a key that needs confirmation is refused.
    public init(prompter: PasscodePrompter?) {
        self.prompter = prompter
    }

    /// The prompter the agent uses in `environment`: pinentry first (an agent's terminal is usually its shell's),
    /// then the terminal.
    public static func standard(environment: [String: String]) -> AgentConfirmation {
        if let named = environment[PasscodePrompter.pinentryVariable], named.contains("/") {
            return AgentConfirmation(prompter: PasscodePrompter(method: .pinentry(program: named)))
        }
        if environment[PasscodePrompter.pinentryVariable] == nil, let program = PasscodePrompter.pinentryOnPath(environment: environment) {
            return AgentConfirmation(prompter: PasscodePrompter(method: .pinentry(program: program)))
        }
        return AgentConfirmation(prompter: PasscodePrompter.standard(environment: environment))
    }

    /// Returns when the person allows this use of `key`; throws when they refuse, do not answer, or cannot be asked.
    func confirm(_ key: AgentKey) throws(AgentRefusal) {
        guard let prompter else {
            throw AgentRefusal("the key needs confirmation (ssh-add -c) and there is no pinentry or terminal to ask")
        }
        let question = PasscodeQuestion(
            title: "coffer ssh-agent",
            description:
                "Allow use of the SSH key \(key.comment.isEmpty ? "(no comment)" : ControlCharacterEscaping.escaped(key.comment)) (\(key.fingerprint))?",
            timeout: Self.timeout)
        let outcome: Result<Void, PromptFailure> = oneAtATime.withLock { _ in
            do throws(PromptFailure) {
                try prompter.confirm(question)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let failure) = outcome { throw AgentRefusal("the use of the key was not confirmed: \(failure)") }
    }
}
