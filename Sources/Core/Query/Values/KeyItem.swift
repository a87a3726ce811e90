import Foundation
import KeychainModel

/// How a key becomes a `kSecClassKey` item and comes back, as Apple's client does it
/// (`SecKeyCopyAttributeDictionary`, `SecItemAttributesPrepare`, `add_key` of `SecKeyCreateRandomKey`): the
/// one place every front end that stores keys (the `Security` module's `SecKey`, the `Coffer` API's keys)
/// takes these rules from.
public enum KeyItem {
    /// The token that keeps keys which never leave the keychain (`kSecAttrTokenIDSecureEnclave`).
    public static let secureEnclaveTokenID = "com.apple.setoken"
    /// `kSecAttrTokenOID`: the token's handle of the key (here, its seal).
    public static let tokenObjectID = "toid"
    /// The attributes a search drops from a key's dictionary: they vary between OS versions (§7.1).
    public static let droppedFromSearches: Set<String> = [
        "encr", "decr", "drve", "sign", "vrfy", "snrc", "vyrc", "wrap", "unwp", "perm",
    ]

    /// A key attribute's number as Apple's key dictionaries give it: the class and type as their constants
    /// (strings), the sizes as numbers, and every flag as a boolean. The keychain stores them as numbers (§7.1).
    public static func appleForm(code: String, number: Int64) -> KeychainValue {
        switch code {
        case QueryKey.keyClass, QueryKey.type: .string(String(number))
        case QueryKey.keySizeInBits, "esiz": .number(number)
        default: .bool(number != 0)
        }
    }

    /// A software key's attribute dictionary: `attributes` (its derived attributes in Apple's form) with the
    /// class and `v_Data`, its external representation.
    public static func softwareKeyAttributes(_ attributes: [String: KeychainValue], externalRepresentation: Data) -> [String: KeychainValue] {
        var dictionary = attributes
        dictionary[QueryKey.itemClass] = .string(ItemClass.key.rawValue)
        dictionary[QueryKey.valueData] = .data(externalRepresentation)
        return dictionary
    }

    /// A token key's attribute dictionary: `attributes` (the private key's derived attributes in Apple's
    /// form) with the class, `tkid`, `toid` (the seal) and the access control sealed with it.
    public static func tokenKeyAttributes(
        _ attributes: [String: KeychainValue], sealed: Data, accessControl: AccessControl
    ) -> [String: KeychainValue] {
        var dictionary = attributes
        dictionary[QueryKey.itemClass] = .string(ItemClass.key.rawValue)
        dictionary[QueryKey.tokenID] = .string(secureEnclaveTokenID)
        dictionary[tokenObjectID] = .data(sealed)
        dictionary[QueryKey.accessControl] = .accessControl(accessControl)
        return dictionary
    }

    /// The key as the value of `kSecValueRef`: its attributes, and as its data the bytes its item keeps
    /// (the external representation, or a token key's seal).
    public static func reference(attributes: [String: KeychainValue]) -> ItemReference {
        var attributes = attributes
        let data = attributes.removeValue(forKey: QueryKey.valueData)?.dataValue ?? attributes.removeValue(forKey: tokenObjectID)?.dataValue
        return ItemReference(itemClass: .key, attributes: attributes, data: data)
    }

    /// Apple's `add_key`: the `SecItemAdd` dictionary that stores the key `reference` stands for with the
    /// caller's `attributes`. A token key's own access control wins over the one in `attributes`.
    public static func addDictionary(storing reference: ItemReference, attributes: QueryDictionary) -> QueryDictionary {
        var query = attributes
        query[QueryKey.valueRef] = .itemReference(reference)
        if isToken(reference) { query[QueryKey.accessControl] = nil }
        return expanded(query, forSearch: false)
    }

    /// `query` with a key under `kSecValueRef` replaced by the key's attributes (Apple's
    /// `SecItemAttributesPrepare`): the caller's own entries win; a search leaves out the usage flags. An added
    /// token key is stored as Apple stores one: its protection lives in the key (its seal), so the row itself
    /// is always readable (`dk`).
    public static func expanded(_ query: QueryDictionary, forSearch: Bool) -> QueryDictionary {
        guard case .itemReference(let reference)? = query[QueryKey.valueRef], reference.itemClass == .key else { return query }
        var expanded = query
        expanded[QueryKey.valueRef] = nil
        var attributes = reference.attributes
        attributes[tokenObjectID] = nil
        if let data = reference.data { attributes[QueryKey.valueData] = .data(data) }
        if forSearch {
            for code in droppedFromSearches { attributes[code] = nil }
        } else if isToken(reference) {
            attributes[QueryKey.accessControl] = nil
            expanded[QueryKey.accessControl] = nil
            if expanded[QueryKey.accessible] == nil { attributes[QueryKey.accessible] = .string(ProtectionClass.always.rawValue) }
        }
        for (code, value) in attributes where expanded[code] == nil {
            expanded[code] = value
        }
        return expanded
    }

    /// Whether `reference` stands for a key whose private part the keychain keeps.
    public static func isToken(_ reference: ItemReference) -> Bool {
        reference.attributes[QueryKey.tokenID] == .string(secureEnclaveTokenID)
    }

    /// A `kSecAttrKeyType` or `kSecAttrKeyClass` value as its number: Apple's strings ("73", "1"), or the
    /// numbers the keychain stores.
    public static func code(_ value: KeychainValue?) -> Int? {
        switch value {
        case .string(let text): Int(text)
        case .number(let number): Int(exactly: number)
        default: nil
        }
    }
}
