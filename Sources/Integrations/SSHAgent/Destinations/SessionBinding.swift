import Foundation

/// One `session-bind@openssh.com` a connection made and the agent verified: the SSH session it came through,
/// named by the host's key and the session identifier the host signed.
public struct SessionBinding: Equatable, Sendable {
    /// The host key's blob.
    public let hostKey: Data
    /// The session identifier (the exchange hash of the session's first key exchange).
    public let sessionIdentifier: Data
    /// Whether the session forwards the agent onward (true), or authenticates to the host (false).
    public let isForwarding: Bool

    /// A binding of these values.
    public init(hostKey: Data, sessionIdentifier: Data, isForwarding: Bool) {
        self.hostKey = hostKey
        self.sessionIdentifier = sessionIdentifier
        self.isForwarding = isForwarding
    }
}
