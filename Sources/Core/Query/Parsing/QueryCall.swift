/// Which `SecItem…` dictionary is being parsed; several rules differ per call.
enum QueryCall: Sendable {
    /// `SecItemAdd`'s attributes.
    case add
    /// `SecItemCopyMatching`'s query.
    case search
    /// `SecItemUpdate`'s query (not its `attributesToUpdate`).
    case updateQuery
    /// `SecItemDelete`'s query.
    case delete
}
