import Foundation
import KeyCrypto
import KeychainClient
import KeychainModel
import Query

/// One key item of a search's answer, as the keychain's seam answers it (attribute codes to values).
///
/// The agent searches through its client's typed calls rather than `SecItemCopyMatching`: Apple's function answers
/// an `NSArray` of `NSDictionary`s, and on Linux reading that array back converts each dictionary into a Swift
/// dictionary value by value, which cost the agent more than the keychain's own search.
struct KeychainAttributes {
    private var attributes: [String: KeychainValue]

    /// The items matching `query` (a `kSecMatchLimitAll` search returning attributes); none when nothing matches.
    static func search(_ query: QueryDictionary, on client: any KeychainClient) throws(AgentRefusal) -> [KeychainAttributes] {
        let items: [KeychainValue]
        do {
            items = try client.blocking.allMatches(query)
        } catch  where error.status == .missingEntitlement {
            throw .ownerAccessMissing
        } catch {
            throw AgentRefusal("the keychain could not be read (\(error))")
        }
        return items.compactMap { item in
            guard case .dictionary(let attributes) = item else { return nil }
            return KeychainAttributes(attributes: attributes)
        }
    }

    /// The query for the agent's key items: `kSecClassKey`, every match, attributes, `v_Data` when `returnData`, and
    /// the given attribute codes and values.
    static func keyQuery(returnData: Bool, _ match: [String: KeychainValue]) -> QueryDictionary {
        var query: QueryDictionary = [
            .string(QueryKey.itemClass): .string(QueryConstant.classKey), .string(QueryKey.matchLimit): .string(QueryConstant.matchLimitAll),
            .string(QueryKey.returnAttributes): .bool(true), .string(QueryKey.returnData): .bool(returnData),
        ]
        for (code, value) in match { query[code] = value }
        return query
    }

    /// The value under the attribute `code` (`QueryKey`'s names: `klbl`, `atag`, …).
    subscript(_ code: String) -> KeychainValue? { attributes[code] }

    /// The bytes under `code`, if they are bytes.
    func data(_ code: String) -> Data? { attributes[code]?.dataValue }

    /// Takes the bytes under `code` out of the item, so that the caller holds their only copy and can clear them in
    /// place (clearing bytes that another value still shares clears only a copy of them).
    mutating func takeData(_ code: String) -> Data? { attributes.removeValue(forKey: code)?.dataValue }

    /// The text under `code`, if it is text.
    func string(_ code: String) -> String? { attributes[code]?.stringValue }

    /// `kSecAttrKeyType` as the cryptography module names it; nil for a type the agent does not serve.
    var keyType: KeyType? { KeyItem.code(attributes[QueryKey.type]).flatMap(KeyType.init(rawValue:)) }
}
