/// Why the agent answered a request with a failure, for its log. It never holds a key, a passphrase or the
/// data of a sign request.
public struct AgentRefusal: Error, Sendable, CustomStringConvertible {
    /// What was refused and why.
    public let reason: String

    /// A refusal saying `reason`.
    public init(_ reason: String) { self.reason = reason }

    /// The text for a log line; it never holds key material or secrets.
    public var description: String { reason }
}
