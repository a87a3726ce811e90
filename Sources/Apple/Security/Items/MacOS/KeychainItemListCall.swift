import Foundation
import KeychainClient
import KeychainModel
import Query

/// A `kSecMatchItemList` of ``SecKeychainItem``s, applied as macOS's file keychain applies it: the call
/// reaches only the listed items that also match the rest of the dictionary.
///
/// macOS's data-protection keychain ignores the list in a search and drops it from an update or delete,
/// which would then reach every item of the class; Coffer keeps to the list, which is what the code that
/// builds one relies on and which widens nothing. A search first finds the persistent references of
/// every match, then reads the listed ones that are among them, in the list's order and up to the match
/// limit; an update or delete is run once per listed item, with the item's persistent reference added to
/// the dictionary. Nothing listed matching is `errSecItemNotFound`.
enum KeychainItemListCall {
    /// `SecItemCopyMatching` limited to `items`.
    static func copyMatching(
        _ query: QueryDictionary, items: [SecKeychainItem], client: any KeychainClient
    ) throws(KeychainFailure) -> KeychainValue? {
        var search = query
        for key in ReturnKeys.all { search[key] = nil }
        search[QueryKey.matchLimit] = .string(QueryConstant.matchLimitAll)
        search[QueryKey.returnPersistentRef] = .bool(true)
        let found = Set(persistentReferences(in: try client.blocking.copyMatching(search)))
        let listed = unique(items).filter { found.contains($0.persistentReference) }
        guard !listed.isEmpty else { throw KeychainFailure(.itemNotFound) }

        let limit = resultLimit(query[QueryKey.matchLimit])
        var results: [KeychainValue] = []
        for item in listed.prefix(limit ?? 1) {
            var read = QueryDictionary(
                query.entries.filter { key, _ in
                    guard let name = key.stringValue else { return false }
                    return name.hasPrefix("r_") || name.hasPrefix("u_")
                })
            read[QueryKey.itemClass] = .string(item.itemClass.rawValue)
            read[QueryKey.valuePersistentRef] = .data(item.persistentReference)
            if let value = try client.blocking.copyMatching(read) { results.append(value) }
        }
        guard limit != nil else { return results.first }
        return .array(results)
    }

    /// `SecItemUpdate` limited to `items`.
    static func update(
        _ query: QueryDictionary, items: [SecKeychainItem], changes: QueryDictionary, client: any KeychainClient
    ) throws(KeychainFailure) {
        try forEachListed(query, items) { (selected: QueryDictionary) throws(KeychainFailure) in
            try client.blocking.update(selected, attributesToUpdate: changes)
        }
    }

    /// `SecItemDelete` limited to `items`.
    static func delete(_ query: QueryDictionary, items: [SecKeychainItem], client: any KeychainClient) throws(KeychainFailure) {
        try forEachListed(query, items) { (selected: QueryDictionary) throws(KeychainFailure) in
            try client.blocking.delete(selected)
        }
    }

    /// Runs `body` for each listed item of the query's class, with the dictionary narrowed to it.
    private static func forEachListed(
        _ query: QueryDictionary, _ items: [SecKeychainItem], _ body: (QueryDictionary) throws(KeychainFailure) -> Void
    ) throws(KeychainFailure) {
        let itemClass = query[QueryKey.itemClass]?.stringValue
        var reachedAny = false
        for item in unique(items) where itemClass == nil || itemClass == item.itemClass.rawValue {
            var selected = query
            selected[QueryKey.valuePersistentRef] = .data(item.persistentReference)
            selected[QueryKey.synchronizable] = nil
            do {
                try body(selected)
                reachedAny = true
            } catch  where error.status == .itemNotFound {
                continue
            }
        }
        guard reachedAny else { throw KeychainFailure(.itemNotFound) }
    }

    /// How many results a search returns as an array; nil for one result on its own (no limit,
    /// `kSecMatchLimitOne` or the number 1).
    private static func resultLimit(_ value: KeychainValue?) -> Int? {
        switch value {
        case .string(QueryConstant.matchLimitAll): .max
        case .number(let count) where count != 1: count < 0 ? .max : Int(count)
        default: nil
        }
    }

    private static func persistentReferences(in value: KeychainValue?) -> [Data] {
        switch value {
        case .array(let elements): elements.compactMap(\.dataValue)
        case .data(let reference): [reference]
        default: []
        }
    }

    private static func unique(_ items: [SecKeychainItem]) -> [SecKeychainItem] {
        var seen = Set<SecKeychainItem>()
        return items.filter { seen.insert($0).inserted }
    }
}
