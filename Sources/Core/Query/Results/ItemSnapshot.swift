import Foundation
import KeychainModel

/// A stored item as the engine hands it to ``ResultShaper``: decrypted attributes, the secret if loaded,
/// and its persistent reference.
public struct ItemSnapshot: Sendable, Hashable {
    /// The item class.
    public var itemClass: ItemClass
    /// The stored attributes (including `agrp`, `pdmn`, `sync`, dates, and whatever bookkeeping the engine keeps).
    public var attributes: AttributeSet
    /// The secret; nil when it was not loaded or the item has none.
    public var data: Data?
    /// The item's persistent reference.
    public var persistentRef: PersistentReference

    /// A snapshot.
    public init(itemClass: ItemClass, attributes: AttributeSet, data: Data?, persistentRef: PersistentReference) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.data = data
        self.persistentRef = persistentRef
    }
}
