import ProgramIdentity

/// A client of the provider, identified as cofferd identifies its callers: which items it may see and
/// which access group the items it creates belong to.
struct SecretServiceCaller: Sendable, Hashable {
    /// How the client was recognised; nil when the bus gave nothing to identify it with.
    let identity: PeerIdentity?
    /// Its access groups, in Apple's order: the first is the one its new items belong to. Empty for a refused
    /// or unidentifiable client, which may do nothing.
    let accessGroups: [String]
    /// Whether every item is visible to every client (``SecretServiceIsolation/shared``).
    let seesEverything: Bool

    /// The access group the items this client creates belong to; nil when it may create none.
    var ownerGroup: String? { accessGroups.first }

    /// Whether the client may see an item owned by `owner`. An item stored before owners were recorded
    /// (`nil`) is visible to every client, as it was then; a client with no access group sees nothing.
    func canSee(owner: String?) -> Bool {
        guard !accessGroups.isEmpty else { return false }
        guard !seesEverything, let owner else { return true }
        return accessGroups.contains(owner)
    }
}
