/// Bytes that are not the SSH wire encoding a message announced (RFC 4251 §5): the request is answered with a
/// failure and its connection closed.
public struct SSHWireError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong, for the log; it never holds the bytes themselves.
    public let reason: String

    /// An error saying `reason`.
    public init(_ reason: String) { self.reason = reason }

    /// The text for a log line; it never holds key material or secrets.
    public var description: String { reason }
}
