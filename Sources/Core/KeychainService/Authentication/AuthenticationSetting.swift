import KeychainModel

/// Where a request is served, for what authentication needs: the session its proofs are kept for (a daemon
/// connection; 0 for the embedded keychain), the program that asks as prompts name it, and who prompts.
public struct AuthenticationSetting: Sendable {
    /// The session authentication contexts belong to.
    public var session: UInt64
    /// Who asks, as the keychain identified it (a prompt shows it).
    public var requester: String
    /// Who asks the person for the passcode; nil when nobody can (the call then fails with -25308).
    public var prompter: (any AuthenticationPrompter)?

    /// A setting.
    public init(session: UInt64, requester: String, prompter: (any AuthenticationPrompter)?) {
        self.session = session
        self.requester = requester
        self.prompter = prompter
    }

    /// The flow's setting, with failed passcodes charged to `charging`.
    func flowSetting(charging: PasscodeAttempts) -> AuthenticationFlow.Setting {
        AuthenticationFlow.Setting(session: session, requester: requester, prompter: prompter, charging: charging)
    }
}
