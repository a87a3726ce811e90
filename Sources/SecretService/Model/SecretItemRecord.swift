/// A Secret Service item as the provider knows it, without its secret: what the `Item` interface's
/// properties show.
struct SecretItemRecord: Sendable, Equatable {
    /// The stable id (the last element of the item's path; the Coffer item's `kSecAttrAccount`).
    var id: String
    /// The label.
    var label: String
    /// The attributes, matched exactly by searches.
    var attributes: [String: String]
    /// The secret's content type, such as `text/plain`.
    var contentType: String
    /// When it was created, in seconds since 1970.
    var created: UInt64
    /// When it was last changed, in seconds since 1970.
    var modified: UInt64
    /// The access group of the program that created it; nil for an item stored before owners were recorded.
    var owner: String?
    /// Whether its postings (``AttributeIndex``) are written: false for an item of the first format.
    var isIndexed: Bool
    /// Whether `created` is a date kept from another provider (the item was copied from it), not Coffer's.
    var keepsCreationDate: Bool = false

    /// Whether every one of `query`'s attributes is one of this item's, with the same value (an empty query
    /// matches every item, as in gnome-keyring).
    func matches(_ query: [String: String]) -> Bool {
        query.allSatisfy { attributes[$0.key] == $0.value }
    }
}
