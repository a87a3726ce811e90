import Foundation
import KeychainModel
import KeychainOperations
import Query

extension KeychainService {
    /// Whether a key item of this keychain, in any access group, holds the seal `sealed`: what a key tied to its
    /// item (``TokenKeyCreation/tiedToItem``) needs at every use, so that deleting the item deletes the key.
    func keyItemExists(holding sealed: Data) -> Bool {
        let query: QueryDictionary = [
            .string(QueryKey.itemClass): .string(ItemClass.key.rawValue), .string(QueryKey.tokenID): .string(KeyItem.secureEnclaveTokenID),
            .string(QueryKey.matchLimit): .string(QueryConstant.matchLimitAll), .string(QueryKey.returnRef): .bool(true),
        ]
        // The keychain itself asks: every access group is searched.
        let keychain = CallerContext(
            accessGroups: .unrestricted(defaultGroup: CallerContext.embeddedDefaultGroup), identity: CallerIdentity(uid: getuid(), kind: .keychain))
        let answer = serveItem(caller: keychain, session: 0) { () throws(QueryRejection) in .search(try QueryParser.parseSearch(query)) }
        guard case .value(let value?) = answer else { return false }
        let found: [KeychainValue] = if case .array(let values) = value { values } else { [value] }
        return found.contains { item in
            if case .itemReference(let reference) = item { return reference.data == sealed }
            return false
        }
    }
}
