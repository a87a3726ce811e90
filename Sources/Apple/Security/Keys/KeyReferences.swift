import Foundation
import KeychainKeys
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
        KeyHandle(reading: reference, authentication: authentication).map(SecKey.init)
    }

    /// The token-key settings of a search: its context, prompt and whether it may prompt.
    static func authentication(of query: QueryDictionary) -> TokenKeyAuthentication {
        let reference = query[QueryKey.useAuthenticationContext].flatMap { AuthenticationContextReference($0) }
        let prompt = query[QueryKey.useOperationPrompt]?.stringValue ?? ""
        let fails =
            query[QueryKey.useAuthenticationUI] == .string(QueryConstant.authenticationUIFail)
            || query[QueryKey.useNoAuthenticationUI] == .bool(true) || reference?.interactionNotAllowed == true
        return TokenKeyAuthentication(context: reference?.context, prompt: prompt, interactive: !fails)
    }
}
