import Query

/// The values a query or a set of changes holds, under Apple's keys, written as Apple's API takes them.
///
/// Properties are set through the item class's key paths and its ``ItemSchema``; nil leaves an entry out.
/// Nothing here checks a rule: the keychain parses the finished dictionary.
struct AttributeEntries<Item: KeychainItem>: Sendable, Hashable {
    /// The entries, with room for a call's return keys and limit.
    private(set) var dictionary = QueryDictionary(Dictionary(minimumCapacity: 12))

    /// The raw entry under Apple's `key`.
    subscript(key: String) -> KeychainValue? {
        get { dictionary[key] }
        set { dictionary[key] = newValue }
    }

    /// The value of the item's property at `keyPath` (unwrapped), or nil when none is set.
    subscript(property keyPath: AnyKeyPath) -> Any? {
        get { self[Item.schema.attribute(for: keyPath)] }
        set { self[Item.schema.attribute(for: keyPath)] = newValue }
    }

    /// The value of the attribute under Apple's `key` (unwrapped), or nil when none is set.
    subscript(attribute key: String) -> Any? {
        get { self[Item.schema.attribute(forKey: key)] }
        set { self[Item.schema.attribute(forKey: key)] = newValue }
    }

    /// The payload (`kSecValueData`), or nil when none is set.
    var value: Item.Value? {
        get { self[Item.schema.value] as? Item.Value }
        set { self[Item.schema.value] = newValue }
    }

    private subscript(attribute: ItemAttribute<Item>) -> Any? {
        get { dictionary[attribute.key].flatMap { entry in attribute.decode(AttributeReader(values: [attribute.key: entry])) } }
        set { dictionary[attribute.key] = newValue.flatMap(attribute.encode) }
    }
}
