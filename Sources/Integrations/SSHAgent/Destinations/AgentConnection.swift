import Foundation

/// What one connection to the agent has told it of the SSH sessions it comes through: the bindings
/// (`session-bind@openssh.com`) it made, which decide where keys with destination constraints may be used.
///
/// A connection is served on one thread; this object belongs to that thread and is not shared.
public final class AgentConnection {
    /// The most bindings one connection records, as OpenSSH's agent (`AGENT_MAX_SESSION_IDS`).
    public static let maximumBindings = 16
    /// The longest session identifier accepted, in bytes (`AGENT_MAX_SID_LEN`).
    public static let maximumSessionIdentifierLength = 128

    /// The verified bindings, first hop first.
    public private(set) var bindings: [SessionBinding] = []
    /// Whether a binding was attempted, even one that failed. A connection that attempted one and holds none may
    /// use no key with destination constraints.
    public private(set) var bindAttempted = false

    /// A connection that has bound nothing yet: local use.
    public init() {}

    /// Records a binding after OpenSSH's rules (`process_ext_session_bind`): `signature` must be the host's valid
    /// signature of `sessionIdentifier` under `hostKey`; no binding follows one made for authentication (not
    /// forwarding); the same session identifier again is accepted (and not recorded twice) only with the same host
    /// key; at most ``maximumBindings``. Every attempt, refused or not, marks the connection as having attempted one.
    public func bind(hostKey: Data, sessionIdentifier: Data, signature: Data, isForwarding: Bool) throws(AgentRefusal) {
        bindAttempted = true
        guard sessionIdentifier.count <= Self.maximumSessionIdentifierLength else {
            throw AgentRefusal("the session identifier is longer than \(Self.maximumSessionIdentifierLength) bytes")
        }
        guard let key = SSHHostKey(blob: hostKey) else {
            throw AgentRefusal("the host key is not an Ed25519, ECDSA or RSA (2048 bits or more) public key")
        }
        guard key.isValidSignature(signature, of: sessionIdentifier) else {
            throw AgentRefusal("the host's signature of the session identifier is not valid")
        }
        for binding in bindings {
            guard binding.isForwarding else {
                throw AgentRefusal("the connection is already bound to a session used for authentication")
            }
            if binding.sessionIdentifier == sessionIdentifier {
                guard binding.hostKey == key.blob else { throw AgentRefusal("the session identifier is bound to another host key") }
                return
            }
        }
        guard bindings.count < Self.maximumBindings else { throw AgentRefusal("the connection has \(Self.maximumBindings) bindings already") }
        bindings.append(SessionBinding(hostKey: key.blob, sessionIdentifier: Data(sessionIdentifier), isForwarding: isForwarding))
    }
}
