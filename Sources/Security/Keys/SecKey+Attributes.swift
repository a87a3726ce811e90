import Foundation
import KeyCrypto
import KeychainModel
import KeychainOperations
import Query

extension SecKey {
    /// The token that keeps Secure Enclave keys (`kSecAttrTokenIDSecureEnclave`).
    static let secureEnclaveToken = "com.apple.setoken"
    /// `kSecAttrTokenOID`: the token's handle of the key (here, its seal).
    static let tokenObjectID = "toid"

    /// Apple's `SecKeyCopyAttributeDictionary`: the class and the attributes of §7.1, with `v_Data` (the
    /// external representation) for a software key, and `tkid`, `toid` (the seal) and the access control
    /// for a token key. What ``SecKeyCopyAttributes(_:)`` answers, and what an item added by reference stores.
    func attributeDictionary() -> [String: KeychainValue] {
        var attributes: [String: KeychainValue] = [QueryKey.itemClass: .string(ItemClass.key.rawValue)]
        switch material {
        case .software(let key):
            for (code, value) in key.derivedAttributes.codes { attributes[code] = value.appleForm(code) }
            attributes[QueryKey.valueData] = .data(key.externalRepresentation())
        case .token(let handle, let publicKey, _):
            for (code, value) in Self.tokenPrivateKeyAttributes(publicKey.derivedAttributes).codes {
                attributes[code] = value.appleForm(code)
            }
            attributes[QueryKey.tokenID] = .string(Self.secureEnclaveToken)
            attributes[Self.tokenObjectID] = .data(handle.sealed)
            attributes[QueryKey.accessControl] = .accessControl(handle.accessControl)
        }
        return attributes
    }

    /// The key as the value of `kSecValueRef` in a dictionary the keychain reads: its attributes, and as its
    /// data the bytes its item keeps (the external representation, or a token key's seal).
    var itemReference: ItemReference {
        var attributes = attributeDictionary()
        let data = attributes.removeValue(forKey: QueryKey.valueData)?.dataValue ?? attributes.removeValue(forKey: Self.tokenObjectID)?.dataValue
        return ItemReference(itemClass: .key, attributes: attributes, data: data)
    }

    /// A private key whose private part never leaves its token: sensitive, never extractable, and usable
    /// for signing, decrypting and agreeing keys, with the label and sizes of its public key.
    private static func tokenPrivateKeyAttributes(_ publicAttributes: DerivedKeyAttributes) -> DerivedKeyAttributes {
        var attributes = publicAttributes
        attributes.keyClass = .privateKey
        attributes.isSensitive = true
        attributes.wasAlwaysSensitive = true
        attributes.isExtractable = false
        attributes.wasNeverExtractable = true
        attributes.canEncrypt = false
        attributes.canVerify = false
        attributes.canWrap = false
        attributes.canDecrypt = true
        attributes.canSign = true
        attributes.canDerive = true
        attributes.canUnwrap = true
        return attributes
    }
}

extension DerivedKeyAttributes.Value {
    /// The value as Apple's key dictionaries give it: the class and type as their constants (strings),
    /// the sizes as numbers, the label as data, and every flag as a boolean. The keychain stores them as
    /// numbers (§7.1).
    func appleForm(_ code: String) -> KeychainValue {
        switch (code, self) {
        case ("kcls", .number(let number)), ("type", .number(let number)): .string(String(number))
        case ("bsiz", .number(let number)), ("esiz", .number(let number)): .number(number)
        case (_, .number(let number)): .bool(number != 0)
        case (_, .data(let bytes)): .data(bytes)
        }
    }
}
