import Foundation

/// The check before a key with destination constraints signs, as OpenSSH's agent makes it
/// (`process_sign_request2`): it signs only a login (``UserauthRequest``) on a connection that has bound the
/// session, to a host and as a user the constraints permit.
enum DestinationCheck {
    /// Returns when `key` may sign `data` on `connection`; a key without destination constraints always may.
    ///
    /// Refused: a connection with no binding (`ssh-keygen -Y sign` and other local use included); data that is not a
    /// public key login request for this key; a host or user the constraints do not permit
    /// (``AgentConnection/permits(_:user:)``); a request whose session identifier is not the last bound one; a
    /// request on a forwarded connection that does not name its host key, or names another than the last bound one.
    static func permitSignature(of data: Data, with key: AgentKey, on connection: AgentConnection) throws(AgentRefusal) {
        let constraints = key.tag.destinations
        guard !constraints.isEmpty else { return }
        guard let last = connection.bindings.last else {
            throw AgentRefusal("a key with destination constraints signs only on a connection bound to an SSH session")
        }
        guard let request = UserauthRequest(data, keyBlob: key.blob) else {
            throw AgentRefusal("a key with destination constraints signs only SSH login requests")
        }
        guard connection.permits(constraints, user: request.user) else {
            throw AgentRefusal("the key's destination constraints do not permit this host or user")
        }
        guard request.sessionIdentifier == last.sessionIdentifier else {
            throw AgentRefusal("the login request is for another session than the one last bound")
        }
        if connection.bindings.count > 1, request.hostKey == nil {
            throw AgentRefusal("a forwarded connection's login request does not name its host key")
        }
        if let hostKey = request.hostKey, hostKey != last.hostKey {
            throw AgentRefusal("the login request names another host key than the one last bound")
        }
    }
}
