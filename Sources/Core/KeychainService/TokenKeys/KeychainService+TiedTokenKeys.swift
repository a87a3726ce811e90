import Foundation
import KeychainModel
import KeychainOperations
import Query

extension KeychainService {
    /// The persistent reference of the key item that holds the token key sealed in `sealed`, or nil when no item
    /// holds it (a key tied to an item dies with it; a key never stored has none).
    func keyItem(holding sealed: Data) -> Data? {
        let query: QueryDictionary = [
            .string(QueryKey.itemClass): .string(ItemClass.key.rawValue), .string(QueryKey.tokenID): .string(KeyItem.secureEnclaveTokenID),
            .string(QueryKey.matchLimit): .string(QueryConstant.matchLimitAll), .string(QueryKey.returnRef): .bool(true),
            .string(QueryKey.returnPersistentRef): .bool(true),
        ]
        // The keychain itself asks, unrecorded: every access group is searched.
        let keychain = CallerContext(
            accessGroups: .unrestricted(defaultGroup: CallerContext.embeddedDefaultGroup), identity: CallerIdentity(uid: getuid(), kind: .keychain))
        let answer = serveItem(caller: keychain, session: 0, audited: false) { () throws(QueryRejection) in
            .search(try QueryParser.parseSearch(query))
        }
        guard case .value(let value?) = answer else { return nil }
        let found: [KeychainValue] = if case .array(let values) = value { values } else { [value] }
        for item in found {
            guard case .dictionary(let entries) = item, case .itemReference(let reference)? = entries[QueryKey.valueRef],
                reference.data == sealed, case .data(let persistent)? = entries[QueryKey.valuePersistentRef]
            else { continue }
            return persistent
        }
        return nil
    }
}
