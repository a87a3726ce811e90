/// A socket the agent could not set up.
public struct AgentSocketError: Error, Sendable, CustomStringConvertible {
    /// What failed, naming the path.
    public let reason: String

    init(_ reason: String) { self.reason = reason }

    /// The text for a log line; it never holds key material or secrets.
    public var description: String { reason }
}
