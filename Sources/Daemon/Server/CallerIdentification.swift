/// What the server knows of a connection's caller once it is identified: the program, from which the
/// keychain derives the caller's access groups for each request.
typealias IdentifiedProgram = ExecutableIdentity

/// The server's one call into caller identification, made on a worker thread, never on an event loop.
///
/// `isAbandoned` turns true when the connection closes; identification that reads `/proc` and hashes
/// an executable should stop then. Today's ``ExecutableIdentifier/identify(_:)`` cannot be stopped once
/// it has started, so the server checks `isAbandoned` before calling it (a connection that closed while
/// waiting for its turn costs no hashing); the identity work replaces this body with its
/// `identify(peer:isAbandoned:)`, which checks it while it hashes.
func identifyCaller(
    _ peer: PeerCredentials, with identifier: ExecutableIdentifier, isAbandoned: () -> Bool
) throws -> IdentifiedProgram {
    try identifier.identify(peer)
}
