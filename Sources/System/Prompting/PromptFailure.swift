/// Why asking the person gave no passcode.
///
/// A reason never contains what the person typed: it names the program, the terminal or the protocol step
/// that failed.
public enum PromptFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The person cancelled: pressed Cancel or closed the pinentry dialog, or ended the terminal's input
    /// (Control-D).
    case cancelled
    /// The person did not answer in time: pinentry reported its own time-out, or the conversation ran past
    /// the question's deadline and the program was stopped.
    case timedOut
    /// The person could not be asked: the program cannot be run or broke the protocol, or the terminal is
    /// unusable. The reason names the problem.
    case unavailable(String)

    /// One line for people.
    public var description: String {
        switch self {
        case .cancelled: "the person cancelled"
        case .timedOut: "the person did not answer in time"
        case .unavailable(let reason): "cannot ask for the passcode: \(reason)"
        }
    }
}
