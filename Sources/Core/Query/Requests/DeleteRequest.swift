/// A validated `SecItemDelete`.
public struct DeleteRequest: Sendable, Hashable {
    /// The items to delete (limit `.all`, no return options).
    public var search: SearchRequest
}
