/// The `SecItem` function a dictionary was passed to; macOS translates a dictionary differently for each.
enum ItemCallKind: Sendable {
    /// `SecItemAdd`.
    case add
    /// `SecItemCopyMatching`.
    case copyMatching
    /// `SecItemUpdate`'s query.
    case update
    /// `SecItemDelete`.
    case delete
}
