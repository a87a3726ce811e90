import Foundation
import KeyCrypto
import KeychainKeys
import KeychainModel
import KeychainOperations
import Query

/// A ``PrivateKey`` as a `kSecClassKey` item: the `SecItemAdd` dictionary Apple's `SecKeyCreateRandomKey`
/// builds for a permanent key (through Query's ``KeyItem``, the same code the `Security` module's `SecKey`
/// uses), and the key a result describes.
enum KeyItemRecord {
    /// The `SecItemAdd` dictionary that stores `key` with the caller's `attributes` (`kSecAttrIsPermanent`,
    /// tag, label, group, protection), asking for the stored attributes and persistent reference back.
    static func addDictionary(for key: PrivateKey, attributes: QueryDictionary) -> QueryDictionary {
        var query = KeyItem.addDictionary(storing: key.handle.itemReference, attributes: attributes)
        query[QueryKey.returnAttributes] = .bool(true)
        query[QueryKey.returnPersistentRef] = .bool(true)
        return query
    }

    /// `key` with the stored attributes of a result dictionary (``PrivateKey/stored``), nothing kept from an earlier
    /// item. A key that never leaves the keychain keeps the access control sealed with it.
    static func key(_ key: PrivateKey, withStored values: [String: KeychainValue]) -> PrivateKey {
        var stored = PrivateKey.stored.reading(PrivateKey(key.handle), from: AttributeReader(values: values))
        if let kept = key.handle.kept { stored.accessControl = kept.handle.accessControl }
        return stored
    }

    /// The private key a `kSecReturnRef` result stands for, with its stored attributes; nil when the item's
    /// bytes are no key.
    /// Whether a search's result is a post-quantum key's item (which ``key(reading:)`` does not read).
    static func isPostQuantumKey(_ result: KeychainValue) -> Bool {
        let reference: ItemReference
        switch result {
        case .dictionary(let dictionary):
            guard case .itemReference(let found)? = dictionary[QueryKey.valueRef] else { return false }
            reference = found
        case .itemReference(let found):
            reference = found
        default:
            return false
        }
        return reference.data.flatMap(TokenKey.init(sealed:))?.kind.isPostQuantum == true
    }

    static func key(reading result: KeychainValue?) -> PrivateKey? {
        let values: [String: KeychainValue]
        let reference: ItemReference
        switch result {
        case .dictionary(let dictionary)?:
            guard case .itemReference(let found)? = dictionary[QueryKey.valueRef] else { return nil }
            (values, reference) = (dictionary, found)
        case .itemReference(let found)?:
            (values, reference) = (found.attributes, found)
        default:
            return nil
        }
        guard let handle = KeyHandle(reading: reference), handle.keyClass == .privateKey else { return nil }
        return Self.key(PrivateKey(handle), withStored: values)
    }
}
