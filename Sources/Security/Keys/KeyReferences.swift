import Foundation
import KeyCrypto
import KeychainModel
import KeychainOperations
import Query

/// `kSecValueRef` holding a ``SecKey``, and `kSecReturnRef` answering one, as Apple's client does them
/// before and after the keychain sees a dictionary (`SecItemAttributesPrepare`, `SecItemCreateFromAttributeDictionary`).
enum KeyReferences {
    /// The attributes a search drops from a key's dictionary: they vary between OS versions (§7.1).
    static let droppedFromSearches: Set<String> = [
        "encr", "decr", "drve", "sign", "vrfy", "snrc", "vyrc", "wrap", "unwp", "perm",
    ]

    /// `query` with a key under `kSecValueRef` replaced by the key's attributes: the caller's own entries
    /// win; a search leaves out the usage flags. An added token key is stored as Apple stores one: its
    /// protection lives in the key (its seal), so the row itself is always readable (`dk`).
    static func expanded(_ query: QueryDictionary, forSearch: Bool) -> QueryDictionary {
        guard case .itemReference(let reference)? = query[QueryKey.valueRef], reference.itemClass == .key else { return query }
        var expanded = query
        expanded[QueryKey.valueRef] = nil
        var attributes = reference.attributes
        attributes[SecKey.tokenObjectID] = nil
        if let data = reference.data { attributes[QueryKey.valueData] = .data(data) }
        let isToken = attributes[QueryKey.tokenID] == .string(SecKey.secureEnclaveToken)
        if forSearch {
            for code in droppedFromSearches { attributes[code] = nil }
        } else if isToken {
            attributes[QueryKey.accessControl] = nil
            expanded[QueryKey.accessControl] = nil
            if expanded[QueryKey.accessible] == nil { attributes[QueryKey.accessible] = .string(ProtectionClass.always.rawValue) }
        }
        for (code, value) in attributes where expanded[code] == nil {
            expanded[code] = value
        }
        return expanded
    }

    /// The key a keychain result's reference stands for; nil when the item's bytes are no key.
    static func key(from reference: ItemReference, authentication: TokenKeyAuthentication) -> SecKey? {
        guard reference.itemClass == .key, let data = reference.data else { return nil }
        let attributes = reference.attributes
        if attributes[QueryKey.tokenID] == .string(SecKey.secureEnclaveToken) {
            guard let handle = TokenKey(sealed: data),
                let publicKey = try? AsymmetricKey(externalRepresentation: handle.publicKey, type: .ellipticCurve, keyClass: .publicKey)
            else { return nil }
            return SecKey(.token(handle, publicKey: publicKey, authentication: authentication))
        }
        guard let type = keyType(attributes["type"]), let keyClass = keyClass(attributes["kcls"]),
            let key = try? AsymmetricKey(externalRepresentation: data, type: type, keyClass: keyClass)
        else { return nil }
        return SecKey(.software(key))
    }

    /// The token-key settings of a search: its context, prompt and whether it may prompt.
    static func authentication(of query: QueryDictionary) -> TokenKeyAuthentication {
        let reference = query[QueryKey.useAuthenticationContext].flatMap { AuthenticationContextReference($0) }
        let prompt = query[QueryKey.useOperationPrompt]?.stringValue ?? ""
        let fails = query[QueryKey.useAuthenticationUI] == .string(QueryConstant.authenticationUIFail)
            || query[QueryKey.useNoAuthenticationUI] == .bool(true) || reference?.interactionNotAllowed == true
        return TokenKeyAuthentication(context: reference?.context, prompt: prompt, interactive: !fails)
    }

    /// A `kSecAttrKeyType` value: Apple's strings, or the numbers the keychain stores.
    static func keyType(_ value: KeychainValue?) -> KeyType? {
        switch value {
        case .string(let text): Int(text).flatMap(KeyType.init(rawValue:))
        case .number(let number): KeyType(rawValue: Int(number))
        default: nil
        }
    }

    /// A `kSecAttrKeyClass` value: Apple's strings, or the numbers the keychain stores.
    static func keyClass(_ value: KeychainValue?) -> KeyClass? {
        switch value {
        case .string(let text): Int(text).flatMap(KeyClass.init(rawValue:))
        case .number(let number): KeyClass(rawValue: Int(number))
        default: nil
        }
    }
}
