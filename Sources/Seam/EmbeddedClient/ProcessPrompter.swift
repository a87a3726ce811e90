import KeychainClient
import KeychainModel
import KeychainOperations
import KeychainService
import Prompting

/// How the embedded keychain asks the person: in this process, on its terminal or through pinentry.
///
/// In embedded mode the keychain's files are the user's own, so the process that reads an access-controlled
/// item asks for the passcode itself, and checks it against the keychain (counted as an unlock attempt).
/// Each prompt waits at most ``timeout`` for the person.
struct ProcessPrompter: AuthenticationPrompter {
    let prompter: PasscodePrompter
    /// How long one prompt waits for the person.
    static let timeout: Duration = .seconds(120)

    func confirmPasscode(_ question: AuthenticationQuestion, reply: @escaping @Sendable (PasscodeConfirmation) -> Void) {
        let description = Prompt(id: 0, purpose: .authenticate, requester: question.requester, reason: question.reason).message
        reply(
            PasscodeAsking.confirm(question) { error -> PasscodeAsking.Answer in
                let asked = Result { () throws(PromptFailure) in
                    try prompter.askPasscode(PasscodeQuestion(title: "Coffer", description: description, error: error, timeout: Self.timeout))
                }
                switch asked {
                case .success(let passcode): return .passcode(passcode)
                case .failure(.cancelled): return .cancelled
                case .failure(.timedOut): return .timedOut
                case .failure(.unavailable(let reason)): return .unavailable(reason: reason)
                }
            })
    }
}
