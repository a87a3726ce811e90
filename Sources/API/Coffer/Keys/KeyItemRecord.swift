import Foundation
import KeyCrypto
import KeychainModel
import KeychainOperations
import Query

/// A ``PrivateKey`` as a `kSecClassKey` item: the `SecItemAdd` dictionary Apple's `SecKeyCreateRandomKey`
/// builds for a permanent key (through Query's ``KeyItem``, the same code the `Security` module's `SecKey`
/// uses), and the key a result describes.
enum KeyItemRecord {
    /// The key as the value of `kSecValueRef`: its attributes as `SecKeyCopyAttributes` lists them, and the
    /// bytes its item keeps (the external representation, or the seal of a key that never leaves the keychain).
    static func reference(for key: PrivateKey) -> ItemReference {
        switch key.material {
        case .software(let material):
            KeyItem.reference(
                attributes: KeyItem.softwareKeyAttributes(
                    material.derivedAttributes.appleForm, externalRepresentation: material.externalRepresentation()))
        case .token(let handle):
            KeyItem.reference(
                attributes: KeyItem.tokenKeyAttributes(
                    DerivedKeyAttributes.tokenPrivateKey(publicKey: key.publicKey.material.derivedAttributes).appleForm,
                    sealed: handle.sealed, accessControl: handle.accessControl))
        }
    }

    /// The `SecItemAdd` dictionary that stores `key` with the caller's `attributes` (`kSecAttrIsPermanent`,
    /// tag, label, group, protection), asking for the stored attributes and persistent reference back.
    static func addDictionary(for key: PrivateKey, attributes: QueryDictionary) -> QueryDictionary {
        var query = KeyItem.addDictionary(storing: reference(for: key), attributes: attributes)
        query[QueryKey.returnAttributes] = .bool(true)
        query[QueryKey.returnPersistentRef] = .bool(true)
        return query
    }

    /// `key` with the stored attributes of a result dictionary: tag, label, group, protection, persistent
    /// reference. A key that never leaves the keychain keeps the access control sealed with it.
    static func key(_ key: PrivateKey, withStored values: [String: KeychainValue]) -> PrivateKey {
        let reader = AttributeReader(values: values)
        var key = key
        key.applicationTag = reader.data(QueryKey.applicationTag)
        key.label = reader.string(QueryKey.label)
        key.accessGroup = reader.string(QueryKey.accessGroup)
        key.accessibility = reader.protection(QueryKey.accessible)
        key.persistentReference = reader.persistentReference(QueryKey.valuePersistentRef)
        if !key.neverLeavesKeychain { key.accessControl = reader.accessControl(QueryKey.accessControl) }
        return key
    }

    /// The private key a `kSecReturnRef` result stands for, with its stored attributes; nil when the item's
    /// bytes are no key.
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
        guard reference.itemClass == .key, let data = reference.data else { return nil }
        let key: PrivateKey
        if KeyItem.isToken(reference) {
            guard let handle = TokenKey(sealed: data),
                let publicKey = try? PublicKey(externalRepresentation: handle.publicKey, type: handle.kind == .ed25519 ? .ed25519 : .ellipticCurve)
            else { return nil }
            key = PrivateKey(token: handle, publicKey: publicKey)
        } else {
            guard let type = KeyItem.code(reference.attributes[QueryKey.type]).flatMap(KeyType.init(rawValue:)),
                KeyItem.code(reference.attributes[QueryKey.keyClass]).flatMap(KeyClass.init(rawValue:)) == .privateKey,
                let material = try? AsymmetricKey(externalRepresentation: data, type: type, keyClass: .privateKey)
            else { return nil }
            key = PrivateKey(software: material)
        }
        return Self.key(key, withStored: values)
    }
}

extension DerivedKeyAttributes {
    /// The attributes under their codes, in the form Apple's key dictionaries give them
    /// (``KeyItem/appleForm(code:number:)``).
    var appleForm: [String: KeychainValue] {
        dictionary(number: KeyItem.appleForm(code:number:), data: KeychainValue.data)
    }
}
