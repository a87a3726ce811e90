import Foundation
import Query

/// New values for the items an update matches: every attribute that is set is written, the others keep
/// their stored values.
///
/// Changes have the item class's attributes, under the item's property names, and its payload as
/// ``value``:
///
/// ```swift
/// var changes = GenericPasswordChanges(value: Data("new secret".utf8))
/// changes.label = "Rotated"
/// try await keychain.update(matching: GenericPasswordQuery(service: "com.example.api", account: "alice"), changes: changes)
/// ```
///
/// Changing a primary-key attribute (for a generic password: service, account, access group,
/// synchronizable) can collide with another item: `errSecDuplicateItem` (-25299), and nothing is changed.
/// Setting `accessibility` re-encrypts the items under that class; give it or `accessControl`, not both.
@dynamicMemberLookup
public struct ItemChanges<Item: KeychainItem>: Sendable, Hashable {
    /// The new values, by Apple's key.
    var entries = AttributeEntries<Item>()

    /// No changes yet; set the properties to change.
    public init() {}

    /// The new value of the item's property `keyPath`; nil keeps the stored one.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Item, Value>) -> Value? {
        get { entries[property: keyPath] as? Value }
        set { entries[property: keyPath] = newValue }
    }

    /// The new value of the item's optional property `keyPath`; nil keeps the stored one.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Item, Value?>) -> Value? {
        get { entries[property: keyPath] as? Value }
        set { entries[property: keyPath] = newValue }
    }

    /// A new payload (`kSecValueData`).
    public var value: Item.Value? {
        get { entries.value }
        set { entries.value = newValue }
    }

    /// `kSecAttrCreationDate`: Apple lets an update set the creation date.
    public var creationDate: Date? {
        get { entries[attribute: QueryKey.creationDate] as? Date }
        set { entries[attribute: QueryKey.creationDate] = newValue }
    }
}
