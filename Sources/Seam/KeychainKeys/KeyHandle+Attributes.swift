import Foundation
import KeyCrypto
import KeychainModel
import KeychainOperations
import Query

/// A key's attributes and its item, as Apple's client makes them (`SecKeyCopyAttributeDictionary`, and the
/// `kSecValueRef` a key is added or found by), through Query's ``KeyItem`` rules.
extension KeyHandle {
    /// The class and the attributes of §7.1: with `v_Data` (the external representation) for a software key;
    /// with `tkid`, `toid` (the seal) and the access control for a kept key. What `SecKeyCopyAttributes`
    /// answers, and what an item added by reference stores.
    public func attributeDictionary() -> [String: KeychainValue] {
        switch storage {
        case .software(let key):
            KeyItem.softwareKeyAttributes(key.derivedAttributes.appleForm, externalRepresentation: key.externalRepresentation())
        case .kept(let key):
            KeyItem.tokenKeyAttributes(
                DerivedKeyAttributes.tokenPrivateKey(publicKey: key.publicKey.derivedAttributes).appleForm,
                sealed: key.handle.sealed, accessControl: key.handle.accessControl)
        }
    }

    /// The key as the value of `kSecValueRef` in a dictionary the keychain reads: its attributes, and as its
    /// data the bytes its item keeps (the external representation, or a kept key's seal).
    public var itemReference: ItemReference { KeyItem.reference(attributes: attributeDictionary()) }

    /// The key a keychain result's reference stands for, a kept key's uses carrying `authentication`; nil when
    /// the item is no key, or its bytes are none.
    public init?(reading reference: ItemReference, authentication: TokenKeyAuthentication = .init()) {
        guard reference.itemClass == .key, let data = reference.data else { return nil }
        if KeyItem.isToken(reference) {
            guard let key = KeptKey(sealed: data, authentication: authentication) else { return nil }
            self.init(kept: key)
            return
        }
        let attributes = reference.attributes
        guard let type = KeyItem.code(attributes[QueryKey.type]).flatMap(KeyType.init(rawValue:)),
            let keyClass = KeyItem.code(attributes[QueryKey.keyClass]).flatMap(KeyClass.init(rawValue:)),
            let key = try? AsymmetricKey(externalRepresentation: data, type: type, keyClass: keyClass)
        else { return nil }
        self.init(software: key)
    }
}

extension DerivedKeyAttributes {
    /// The attributes under their codes, in the form Apple's key dictionaries give them
    /// (``KeyItem/appleForm(code:number:)``).
    public var appleForm: [String: KeychainValue] {
        dictionary(number: KeyItem.appleForm(code:number:), data: KeychainValue.data)
    }
}
