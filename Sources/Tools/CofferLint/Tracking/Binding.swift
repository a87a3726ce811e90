/// What a variable in scope holds, as far as the linter follows it.
enum Binding: Sendable {
    /// A query dictionary.
    case dictionary(TrackedDictionary)
    /// A `SecAccessControl` from `SecAccessControlCreateWithFlags`.
    case accessControl(AccessControlValue)
    /// A string literal (`let service = "com.example"`).
    case text(String)
    /// Bytes written into the source.
    case hardCoded
    /// The enclosing function's parameter at this index.
    case parameter(Int)
}
