import KeychainModel
/// A question the daemon puts to the person through the prompt agent (`coffer prompt-agent`).
///
/// The agent waits with ``Request/awaitPrompt``; the daemon answers that request with a prompt when a
/// program asks for something only the person may grant. The agent shows ``message``, reads the passcode
/// on its terminal or through pinentry, and sends it back with ``Request/answerPrompt(id:passcode:)``:
/// the passcode goes from the agent to the daemon and never through the program that asked.
public struct Prompt: Sendable, Hashable {
    /// What the person is asked for.
    public enum Purpose: UInt8, Sendable, Hashable, CaseIterable {
        /// The keychain passcode, to unlock the keychain.
        case unlock = 1
        /// The keychain passcode, to prove the person is there: a program reads an access-controlled item
        /// or evaluates an `LAContext` policy. The keychain stays as locked or unlocked as it was.
        case authenticate = 2
    }

    /// Identifies the prompt in the agent's answer.
    public var id: UInt64
    /// What the person is asked for.
    public var purpose: Purpose
    /// Who asked, as the daemon identified it: a program's path or application identifier, and its process, with
    /// control characters escaped (a path may hold a newline, which must not become a line of the prompt).
    public var requester: String
    /// Wrong passcodes typed into this prompt so far (the agent shows it when asking again).
    public var failedAttempts: Int
    /// Why the program asks, in its own words (`kSecUseOperationPrompt`, `localizedReason`); empty for an unlock.
    public var reason: String

    /// A prompt.
    public init(id: UInt64, purpose: Purpose, requester: String, failedAttempts: Int = 0, reason: String = "") {
        self.id = id
        self.purpose = purpose
        self.requester = ControlCharacterEscaping.escaped(requester)
        self.failedAttempts = failedAttempts
        self.reason = String(
            String.UnicodeScalarView(
                reason.unicodeScalars.filter { $0.properties.generalCategory != .control && $0.properties.generalCategory != .format }.prefix(
                    Self.maximumReasonLength)))
    }

    /// The longest reason shown, in Unicode scalars; control characters are removed, so a program cannot
    /// redraw the prompt's lines or hide who asks.
    public static let maximumReasonLength = 200

    /// The sentence the agent shows: who asks, and for what.
    public var message: String {
        switch purpose {
        case .unlock: "\(requester) asks to unlock your keychain. Enter the keychain passcode."
        case .authenticate:
            reason.isEmpty
                ? "\(requester) asks you to confirm it is you. Enter the keychain passcode."
                : "\(requester) asks you to confirm it is you: “\(reason)”. Enter the keychain passcode."
        }
    }
}
