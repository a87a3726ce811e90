/// What one sync run did.
public struct SyncReport: Sendable, Equatable, Codable {
    /// Local changes written to the server (tombstones included).
    public var sent = 0
    /// Records pulled from the server.
    public var received = 0
    /// Pulled records applied to the keychain.
    public var applied = 0
    /// Conflicts settled (a primary key held by two records, or a local change the server's newer version replaced).
    public var conflicts = 0
    /// Records refused: changed by the server, rolled back, or holding what may not be stored.
    public var refused = 0
    /// Records and local changes waiting for the keychain to be unlocked.
    public var waiting = 0
    /// Tombstones every device had seen, deleted from the server.
    public var collected = 0

    /// An empty report.
    public init() {}
}
