import KeychainModel

/// The loop of a prompter that asks in this process (the terminal, pinentry): ask, check, and ask again
/// after a wrong passcode, at most ``AuthenticationQuestion/attempts`` times.
public enum PasscodeAsking {
    /// What one ask returned.
    public enum Answer: Sendable {
        /// What the person typed.
        case passcode(SecretBytes)
        /// The person cancelled.
        case cancelled
        /// Nobody answered in time.
        case timedOut
        /// The prompt could not be shown.
        case unavailable(reason: String)
    }

    /// Asks with `ask` (given the error to show, nil the first time) until `question.check` accepts a passcode,
    /// the person cancels, or the attempts run out.
    public static func confirm(_ question: AuthenticationQuestion, ask: (_ error: String?) -> Answer) -> PasscodeConfirmation {
        var error: String?
        for attempt in 1...AuthenticationQuestion.attempts {
            switch ask(error) {
            case .cancelled: return .cancelled
            case .timedOut: return .timedOut
            case .unavailable(let reason): return .unavailable(reason: reason)
            case .passcode(let passcode):
                switch question.check(passcode) {
                case .right: return .confirmed
                case .refused(let refusal): return .failed(reason: refusal.description)
                case .wrong(let wrong):
                    if attempt == AuthenticationQuestion.attempts { return .failed(reason: "\(attempt) wrong passcodes at the prompt") }
                    error = wrong.description
                }
            }
        }
        return .failed(reason: "no passcode was accepted")
    }
}
