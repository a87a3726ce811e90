import Query

/// One attribute of an item class: the property, Apple's key, and how a value is written into a query
/// dictionary and read back from a result.
///
/// Reading fills in a blank item, so a property that is never nil keeps its empty value (`""`, 0, false)
/// when the result has none, which is the attribute's stored default.
final class ItemAttribute<Item>: Sendable {
    /// The property's name, as descriptions show it.
    let name: String
    /// Apple's key, such as `svce` for `kSecAttrService`.
    let key: String
    /// The property.
    let property: PropertyKey
    /// Whether the keychain sets the attribute (dates, persistent reference): items read it back but do not
    /// write it when added.
    let isMetadata: Bool
    /// The item's value, as Apple's API takes it; nil when the property is nil.
    let write: @Sendable (Item) -> KeychainValue?
    /// Sets the property from a result that has a value for it.
    let read: @Sendable (inout Item, AttributeReader) -> Void
    /// A value of the property's type (unwrapped), as Apple's API takes it.
    let encode: @Sendable (Any) -> KeychainValue?
    /// The value under ``key`` in a dictionary, of the property's type (unwrapped); nil when there is none.
    let decode: @Sendable (AttributeReader) -> Any?

    /// An attribute whose property is never nil.
    convenience init<Value>(
        _ name: String, _ keyPath: WritableKeyPath<Item, Value> & Sendable, _ key: String,
        _ coding: AttributeCoding<Value>, metadata: Bool = false
    ) {
        self.init(name: name, key: key, property: PropertyKey(keyPath), isMetadata: metadata, coding: coding) { item in
            coding.write(item[keyPath: keyPath])
        } read: { item, value in
            item[keyPath: keyPath] = value
        }
    }

    /// An attribute whose property is nil when the item has no value.
    convenience init<Value>(
        _ name: String, _ keyPath: WritableKeyPath<Item, Value?> & Sendable, _ key: String,
        _ coding: AttributeCoding<Value>, metadata: Bool = false
    ) {
        self.init(name: name, key: key, property: PropertyKey(keyPath), isMetadata: metadata, coding: coding) { item in
            item[keyPath: keyPath].map(coding.write)
        } read: { item, value in
            item[keyPath: keyPath] = value
        }
    }

    private init<Value>(
        name: String, key: String, property: PropertyKey, isMetadata: Bool, coding: AttributeCoding<Value>,
        write: @escaping @Sendable (Item) -> KeychainValue?, read set: @escaping @Sendable (inout Item, Value) -> Void
    ) {
        self.name = name
        self.key = key
        self.property = property
        self.isMetadata = isMetadata
        self.write = write
        read = { item, result in
            if let value = coding.read(result, key) { set(&item, value) }
        }
        encode = { value in (value as? Value).map(coding.write) }
        decode = { result in coding.read(result, key) }
    }
}
