/// What the server knows of a connection's caller once it is identified: who the kernel says it is, and
/// how the daemon recognised it (``PeerIdentity``).
typealias IdentifiedProgram = PeerIdentity

/// The server's one call into caller identification, made on a worker thread, never on an event loop.
///
/// `isAbandoned` turns true when the connection closes; identification, which reads `/proc` and may hash
/// a pinned executable, checks it between chunks and stops.
func identifyCaller(
    _ peer: PeerCredentials, of keychain: UserKeychain, with identifier: PeerIdentifier, isAbandoned: () -> Bool
) throws -> IdentifiedProgram {
    try identifier.identify(peer: peer, registry: keychain.programs, isAbandoned: isAbandoned)
}
