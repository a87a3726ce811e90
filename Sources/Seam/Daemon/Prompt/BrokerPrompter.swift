import KeychainModel
import KeychainOperations
import KeychainService

/// Asks for the passcode through the user's prompt agent: the person types it into the agent, the daemon
/// checks it, and the program that asked learns only the outcome.
struct BrokerPrompter: AuthenticationPrompter {
    let broker: PromptBroker
    /// The connection of the program that asked (its question is withdrawn when it goes).
    let connection: UInt64

    func confirmPasscode(_ question: AuthenticationQuestion, reply: @escaping @Sendable (PasscodeConfirmation) -> Void) {
        broker.ask(
            .authenticate, requester: question.requester, reason: question.reason, connection: connection,
            check: question.check
        ) { response in
            switch response {
            case .status(let status) where status.isSuccess: reply(.confirmed)
            case .keystoreError(.cancelled): reply(.cancelled)
            case .keystoreError(.unavailable(let reason)): reply(.unavailable(reason: reason))
            case .authenticationFailure(let failure): reply(.failed(reason: failure.reason))
            case .keystoreError(let error): reply(.failed(reason: error.description))
            default: reply(.failed(reason: "the prompt ended unexpectedly"))
            }
        }
    }
}
