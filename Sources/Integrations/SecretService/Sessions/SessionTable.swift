/// The open sessions, by id. Confined to the bus thread.
struct SessionTable: Sendable {
    private var sessions: [String: SecretSession] = [:]
    private var nextNumber: UInt64 = 1

    /// Opens a session for `owner` with `algorithm`.
    mutating func open(owner: String, algorithm: SecretSession.Algorithm) -> SecretSession {
        let session = SecretSession(id: "s\(nextNumber)", owner: owner, algorithm: algorithm)
        nextNumber += 1
        sessions[session.id] = session
        return session
    }

    /// The session at `path`, when it is open.
    func session(at path: String) -> SecretSession? {
        guard case .session(let id)? = ObjectPath(path) else { return nil }
        return sessions[id]
    }

    /// Whether the session `id` is open.
    func contains(_ id: String) -> Bool { sessions[id] != nil }

    /// Closes the session `id`.
    mutating func close(_ id: String) { sessions[id] = nil }

    /// Closes every session the client `owner` (a unique bus name) opened: it has left the bus.
    mutating func close(ownedBy owner: String) { sessions = sessions.filter { $0.value.owner != owner } }
}
