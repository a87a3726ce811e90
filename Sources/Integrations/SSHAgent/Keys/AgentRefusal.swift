/// Why the agent answered a request with a failure, for its log. It never holds a key, a passphrase or the
/// data of a sign request.
public struct AgentRefusal: Error, Sendable, CustomStringConvertible {
    /// What was refused and why.
    public let reason: String

    /// Whether the keychain refused because the caller may not use the owner's group (`errSecMissingEntitlement`).
    let isOwnerAccessMissing: Bool

    /// A refusal saying `reason`.
    public init(_ reason: String) {
        self.reason = reason
        isOwnerAccessMissing = false
    }

    /// The keychain refused the owner's group to this connection.
    static let ownerAccessMissing = AgentRefusal(
        reason: "the agent's keys are the keychain owner's: this connection has not proved the keychain passcode", ownerAccessMissing: true)

    private init(reason: String, ownerAccessMissing: Bool) {
        self.reason = reason
        isOwnerAccessMissing = ownerAccessMissing
    }

    /// The text for a log line; it never holds key material or secrets.
    public var description: String { reason }
}
