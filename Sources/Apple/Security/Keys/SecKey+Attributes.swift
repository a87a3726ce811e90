import Foundation
import KeyCrypto
import KeychainModel
import KeychainOperations
import Query

extension SecKey {
    /// The token that keeps Secure Enclave keys (`kSecAttrTokenIDSecureEnclave`).
    static let secureEnclaveToken = KeyItem.secureEnclaveTokenID
    /// `kSecAttrTokenOID`: the token's handle of the key (here, its seal).
    static let tokenObjectID = KeyItem.tokenObjectID

    /// Apple's `SecKeyCopyAttributeDictionary`: the class and the attributes of §7.1, with `v_Data` (the
    /// external representation) for a software key, and `tkid`, `toid` (the seal) and the access control
    /// for a token key. What ``SecKeyCopyAttributes(_:)`` answers, and what an item added by reference stores.
    func attributeDictionary() -> [String: KeychainValue] {
        switch material {
        case .software(let key):
            KeyItem.softwareKeyAttributes(key.derivedAttributes.appleForm, externalRepresentation: key.externalRepresentation())
        case .token(let handle, let publicKey, _):
            KeyItem.tokenKeyAttributes(
                DerivedKeyAttributes.tokenPrivateKey(publicKey: publicKey.derivedAttributes).appleForm,
                sealed: handle.sealed, accessControl: handle.accessControl)
        }
    }

    /// The key as the value of `kSecValueRef` in a dictionary the keychain reads: its attributes, and as its
    /// data the bytes its item keeps (the external representation, or a token key's seal).
    var itemReference: ItemReference { KeyItem.reference(attributes: attributeDictionary()) }
}

extension DerivedKeyAttributes {
    /// The attributes under their codes, in Apple's form (``KeyItem/appleForm(code:number:)``).
    var appleForm: [String: KeychainValue] {
        dictionary(number: KeyItem.appleForm(code:number:), data: KeychainValue.data)
    }
}
