import KeychainModel
import Query

/// The attributes the keychain stores with an item, listed once: each property with Apple's key and how its
/// value is written and read back.
///
/// Every kind of item Coffer stores declares its list this way: the password classes in their ``ItemSchema``,
/// and keys and certificates, whose payload is the key or certificate itself (`kSecValueRef`), in theirs
/// (`PrivateKey.stored`, `Certificate.stored`). Adding writes the entries a value sets; reading a result sets
/// the properties it holds.
final class StoredAttributes<Item>: Sendable {
    /// The attributes, in the order descriptions show them.
    let attributes: [ItemAttribute<Item>]

    /// The list of `attributes`.
    init(_ attributes: [ItemAttribute<Item>]) {
        self.attributes = attributes
    }

    /// The entries `item` sets, under Apple's keys; the keychain's own (metadata) are left out.
    func entries(of item: Item) -> QueryDictionary {
        var dictionary = QueryDictionary()
        write(item, into: &dictionary)
        return dictionary
    }

    /// Adds the entries `item` sets to `dictionary`.
    func write(_ item: Item, into dictionary: inout QueryDictionary) {
        for attribute in attributes where !attribute.isMetadata {
            if let entry = attribute.write(item) { dictionary[attribute.key] = entry }
        }
    }

    /// `item` with each property the result holds a value for set from it.
    func reading(_ item: Item, from result: AttributeReader) -> Item {
        var item = item
        for attribute in attributes { attribute.read(&item, result) }
        return item
    }
}
