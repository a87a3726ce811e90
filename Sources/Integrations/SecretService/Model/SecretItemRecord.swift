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
    /// When Coffer stored it, in seconds since 1970 to the fraction: items are listed and found oldest first, in
    /// the order gnome-keyring lists them (see ``isListed(before:)``).
    var storedAt: Double = 0

    /// The attribute that holds an item's schema, which the `Type` property shows (libsecret's `xdg:schema`).
    static let schemaAttribute = "xdg:schema"

    /// This item with its schema (`Type`) set to `schema`; an empty schema removes it.
    func withSchema(_ schema: String) -> SecretItemRecord {
        var changed = self
        changed.attributes[Self.schemaAttribute] = schema.isEmpty ? nil : schema
        return changed
    }

    /// Whether this item comes before `other` in listings and searches: stored earlier, or at the same moment with
    /// a smaller id.
    func isListed(before other: SecretItemRecord) -> Bool {
        (storedAt, id) < (other.storedAt, other.id)
    }

    /// Whether every one of `query`'s attributes is one of this item's, with the same value (an empty query
    /// matches every item, as in gnome-keyring).
    func matches(_ query: [String: String]) -> Bool {
        query.allSatisfy { attributes[$0.key] == $0.value }
    }
}
