/// Which items a search considers with respect to `kSecAttrSynchronizable` (§2.5).
public enum SynchronizableFilter: Sendable, Hashable {
    /// Only items with `sync = 0`: the implicit filter when the query says nothing.
    case nonSynchronizable
    /// Only items with `sync = 1`.
    case synchronizable
    /// Both (`kSecAttrSynchronizableAny`, or a query by persistent reference without a `sync` key).
    case any

    /// Whether an item with the given synchronizable flag passes the filter.
    public func admits(isSynchronizable: Bool) -> Bool {
        switch self {
        case .nonSynchronizable: !isSynchronizable
        case .synchronizable: isSynchronizable
        case .any: true
        }
    }
}
