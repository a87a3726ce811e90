import KeychainModel

/// Who asks the person for the keychain passcode when an authentication needs it: the daemon's prompt
/// agent, or, for the embedded keychain, the terminal or pinentry of the process itself.
///
/// `confirmPasscode` may answer at once or much later (a person decides); it must call `reply` exactly
/// once, and hold no thread of the cooperative pool while it waits.
public protocol AuthenticationPrompter: Sendable {
    /// Asks for the passcode until `question.check` accepts it, the person cancels, or the prompter gives up.
    func confirmPasscode(_ question: AuthenticationQuestion, reply: @escaping @Sendable (PasscodeConfirmation) -> Void)
}

/// What a prompter asks: who asks and why, and how to check what the person typed.
public struct AuthenticationQuestion: Sendable {
    /// The program that asks, as the keychain identified it.
    public var requester: String
    /// The program's reason (`kSecUseOperationPrompt`, `localizedReason`).
    public var reason: String
    /// Checks a typed passcode against the keychain's, counted as an unlock attempt.
    public var check: @Sendable (SecretBytes) -> PasscodeCheck

    /// A question.
    public init(requester: String, reason: String, check: @escaping @Sendable (SecretBytes) -> PasscodeCheck) {
        self.requester = requester
        self.reason = reason
        self.check = check
    }

    /// The most passcodes one prompt takes before the authentication fails (`LAError.authenticationFailed`).
    public static let attempts = 3
}

/// The verdict on one typed passcode.
public enum PasscodeCheck: Sendable, Equatable {
    /// The keychain's passcode.
    case right
    /// Not the passcode: the prompter may ask again (the error says how many failed and how long to wait).
    case wrong(KeystoreError)
    /// No more attempts may be made now (throttled, erased, the keychain unreadable).
    case refused(KeystoreError)
}

/// How a passcode prompt ended.
public enum PasscodeConfirmation: Sendable, Equatable {
    /// The person typed the passcode.
    case confirmed
    /// The person cancelled.
    case cancelled
    /// Wrong passcodes, or the keychain refused further attempts.
    case failed(reason: String)
    /// Nobody can be asked (no prompt agent, no terminal, no pinentry), or the prompt could not be shown.
    case unavailable(reason: String)
    /// Nobody answered in time.
    case timedOut
}
