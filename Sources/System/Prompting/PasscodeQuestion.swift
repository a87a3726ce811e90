/// What the person is asked: the words shown and how long they have to answer.
public struct PasscodeQuestion: Sendable, Hashable {
    /// The window title (pinentry's `SETTITLE`); a terminal does not show it.
    public var title: String
    /// The sentence that says who asks and why (pinentry's `SETDESC`; on a terminal, the line above the prompt).
    public var description: String
    /// The label before the field, such as `Passcode:`.
    public var prompt: String
    /// Shown when asking again after a wrong passcode (pinentry's `SETERROR`); nil the first time.
    public var error: String?
    /// How long the person has to answer; nil for as long as they take. Pinentry is told (`SETTIMEOUT`, in
    /// whole seconds) and the whole conversation is bounded a little past it, so that a program that stops
    /// answering never holds the caller; a terminal read ends at it.
    public var timeout: Duration?

    /// A question with every part named.
    public init(title: String, description: String, prompt: String = "Passcode:", error: String? = nil, timeout: Duration?) {
        self.title = title
        self.description = description
        self.prompt = prompt
        self.error = error
        self.timeout = timeout
    }
}
