import Foundation
import KeychainModel

/// An item to store: its plaintext parts, which the store seals, and the canonical bytes from which
/// it computes the blind indexes. The engine builds it; the store gives no meaning to any of it.
public struct NewItem: Sendable {
    /// The class, i.e. the table.
    public var itemClass: ItemClass
    /// The protection class: chooses the metadata key and the class key that wraps the item key.
    public var protection: ProtectionClass
    /// The attributes, opaque to the store (the engine's own encoding); sealed under the metadata key.
    public var attributes: Data
    /// The value data (the secret); sealed under the item key. `nil` = the item has none
    /// (distinct from empty data; the row does not show which).
    public var secret: Data?
    /// Attribute code → canonical bytes, for every attribute the item has that has an index column
    /// (see ``ItemStore/indexedAttributes(for:)``). A code with no column throws
    /// ``ItemStoreError/unknownAttribute(code:itemClass:)``; a column with no entry stays NULL and
    /// matches no equality filter.
    public var indexValues: [String: Data]
    /// Canonical bytes of the class's uniqueness attributes (reference §1.4), built by the engine.
    /// Two items of a class with equal bytes are duplicates.
    public var uniqueKey: Data
    /// The persistent reference: 16 bytes, or `nil` for a fresh random one. Ignored by
    /// ``ItemWriter/replace(rowID:with:)`` unless it differs from the row's (then it throws).
    public var persistentRef: Data?

    /// Creates an item description.
    public init(
        itemClass: ItemClass,
        protection: ProtectionClass,
        attributes: Data,
        secret: Data?,
        indexValues: [String: Data],
        uniqueKey: Data,
        persistentRef: Data? = nil
    ) {
        self.itemClass = itemClass
        self.protection = protection
        self.attributes = attributes
        self.secret = secret
        self.indexValues = indexValues
        self.uniqueKey = uniqueKey
        self.persistentRef = persistentRef
    }
}
