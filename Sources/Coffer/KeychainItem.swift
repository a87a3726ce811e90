import Foundation
import KeychainModel
import Query

/// What the keychain operations need from a typed item (internal: the public API names each type).
protocol KeychainItem: Sendable, Hashable {
    /// The item class.
    static var itemClass: ItemClass { get }
    /// The secret.
    var value: Data { get set }
    /// The attributes the item sets, as `SecItemAdd` takes them (without class and secret).
    var attributes: AttributeEntries { get }
    /// The read-only metadata.
    var creationDate: Date? { get }
    /// The read-only metadata.
    var modificationDate: Date? { get }
    /// The read-only metadata.
    var persistentReference: PersistentReference? { get }
    /// An item from a result dictionary.
    init(reading result: AttributeReader)
}

/// What the keychain operations need from a typed query.
protocol KeychainItemQuery: Sendable, Hashable {
    associatedtype Item: KeychainItem
    /// The filters, match keys and persistent reference (without class, return keys and limit).
    var entries: AttributeEntries { get }
    /// The maximum number of items a multi-item read returns; nil for all.
    var limit: Int? { get }
}

/// What the keychain operations need from a typed set of changes.
protocol KeychainItemChanges: Sendable, Hashable {
    /// The new attribute values and secret, as `attributesToUpdate` takes them.
    var entries: AttributeEntries { get }
}
