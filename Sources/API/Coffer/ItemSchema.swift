import KeychainModel
import Query

/// The attributes of an item class, listed once: each property with Apple's key and how its value is
/// written and read back, and the same for the payload.
///
/// Items, ``ItemQuery`` and ``ItemChanges`` all go by it: a query's `service` is the item's `service`
/// with its key, `kSecAttrService`. Coffer's item classes each declare one (``GenericPassword/schema``,
/// ``InternetPassword/schema``); what it holds is internal to Coffer. It is an immutable class so that
/// every query property and every result row reaches it for one reference count.
public final class ItemSchema<Item: KeychainItem>: Sendable {
    /// The item class (`kSecClass`).
    let itemClass: ItemClass
    /// The payload (`kSecValueData`).
    let value: ItemAttribute<Item>
    /// The attributes, declared as every stored kind declares them (``StoredAttributes``).
    let stored: StoredAttributes<Item>
    /// An item with every property empty, which reading a result fills in.
    private let blank: Item
    private let indexByProperty: [PropertyKey: Int]
    private let indexByKey: [String: Int]

    /// The schema of `itemClass`: `blank` is an item with every property empty, `value` its payload.
    init(_ itemClass: ItemClass, blank: Item, value: ItemAttribute<Item>, attributes: [ItemAttribute<Item>]) {
        self.itemClass = itemClass
        self.blank = blank
        self.value = value
        stored = StoredAttributes(attributes)
        indexByProperty = Dictionary(uniqueKeysWithValues: attributes.enumerated().map { ($1.property, $0) })
        indexByKey = Dictionary(uniqueKeysWithValues: attributes.enumerated().map { ($1.key, $0) })
    }

    /// The attributes, in the order descriptions show them.
    var attributes: [ItemAttribute<Item>] { stored.attributes }

    /// The attribute of a property that queries and changes name through the item's key paths.
    func attribute(for keyPath: AnyKeyPath) -> ItemAttribute<Item> {
        guard let index = indexByProperty[PropertyKey(keyPath)] else {
            preconditionFailure("\(keyPath) is not an attribute of \(Item.self)")
        }
        return attributes[index]
    }

    /// The attribute under Apple's `key`.
    func attribute(forKey key: String) -> ItemAttribute<Item> {
        guard let index = indexByKey[key] else { preconditionFailure("\(Item.self) has no attribute \(key)") }
        return attributes[index]
    }

    /// The `SecItemAdd` dictionary for `item`: its class, the attributes it sets and its payload.
    func addDictionary(for item: Item) -> QueryDictionary {
        var dictionary: QueryDictionary = [.string(QueryKey.itemClass): .string(itemClass.rawValue)]
        stored.write(item, into: &dictionary)
        dictionary[value.key] = value.write(item)
        return dictionary
    }

    /// The item a result dictionary describes.
    func item(reading result: AttributeReader) -> Item {
        var item = stored.reading(blank, from: result)
        value.read(&item, result)
        return item
    }
}
