import Foundation
import KeyCrypto
import KeychainModel
import KeychainOperations
import Query

/// `kSecValueRef` holding a ``SecKey``, and `kSecReturnRef` answering one, as Apple's client does them
/// before and after the keychain sees a dictionary (`SecItemAttributesPrepare`, `SecItemCreateFromAttributeDictionary`).
enum KeyReferences {
    /// `query` with a key under `kSecValueRef` replaced by the key's attributes (``KeyItem/expanded(_:forSearch:)``).
    static func expanded(_ query: QueryDictionary, forSearch: Bool) -> QueryDictionary {
        KeyItem.expanded(query, forSearch: forSearch)
    }

    /// The key a keychain result's reference stands for; nil when the item's bytes are no key.
    static func key(from reference: ItemReference, authentication: TokenKeyAuthentication) -> SecKey? {
        guard reference.itemClass == .key, let data = reference.data else { return nil }
        let attributes = reference.attributes
        if attributes[QueryKey.tokenID] == .string(SecKey.secureEnclaveToken) {
            guard let handle = TokenKey(sealed: data),
                let publicKey = try? TokenKeyOperations.publicKey(of: handle)
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
        KeyItem.code(value).flatMap(KeyType.init(rawValue:))
    }

    /// A `kSecAttrKeyClass` value: Apple's strings, or the numbers the keychain stores.
    static func keyClass(_ value: KeychainValue?) -> KeyClass? {
        KeyItem.code(value).flatMap(KeyClass.init(rawValue:))
    }
}
