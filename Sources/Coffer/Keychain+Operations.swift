import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations
import Query

/// The four `SecItem` calls for any typed item, query and changes. The public API names each type.
extension Keychain {
    func addItem<Item: KeychainItem>(_ item: Item) async throws(KeychainError) -> Item {
        var entries = item.attributes
        entries[QueryKey.itemClass] = .string(Item.itemClass.rawValue)
        entries.set(QueryKey.valueData, item.value)
        entries[QueryKey.returnAttributes] = .bool(true)
        entries[QueryKey.returnPersistentRef] = .bool(true)
        let query = entries.dictionary
        let result = try await perform(.add, query) { () async throws(KeychainFailure) in try await client.add(query) }
        var stored = try Item(reading: reader(of: result, operation: .add, query: query))
        stored.value = item.value
        return stored
    }

    /// The first item matching `query`, or nil when none does (`errSecItemNotFound` is not an error here).
    func firstItem<Query: KeychainItemQuery>(_ query: Query, withSecret: Bool) async throws(KeychainError) -> Query.Item? {
        let dictionary = searchDictionary(query, withSecret: withSecret, limit: .string(QueryConstant.matchLimitOne))
        let result: KeychainValue?
        do {
            result = try await client.copyMatching(dictionary)
        } catch where error.status == .itemNotFound {
            return nil
        } catch {
            throw KeychainError(error, operation: .copyMatching, query: dictionary)
        }
        return try Query.Item(reading: reader(of: result, operation: .copyMatching, query: dictionary))
    }

    /// Every item matching `query` (up to its limit), or none.
    func allItems<Query: KeychainItemQuery>(_ query: Query, withSecret: Bool) async throws(KeychainError) -> [Query.Item] {
        let limit: KeychainValue = query.limit.map { .number(Int64($0)) } ?? .string(QueryConstant.matchLimitAll)
        let dictionary = searchDictionary(query, withSecret: withSecret, limit: limit)
        let result: KeychainValue?
        do {
            result = try await client.copyMatching(dictionary)
        } catch where error.status == .itemNotFound {
            return []
        } catch {
            throw KeychainError(error, operation: .copyMatching, query: dictionary)
        }
        // A limit of 1 gives a single dictionary rather than an array (§2.2).
        if case .dictionary = result {
            return [try Query.Item(reading: reader(of: result, operation: .copyMatching, query: dictionary))]
        }
        guard case .array(let elements)? = result else {
            throw unexpectedShape(result, operation: .copyMatching, query: dictionary)
        }
        var items: [Query.Item] = []
        for element in elements {
            items.append(try Query.Item(reading: reader(of: element, operation: .copyMatching, query: dictionary)))
        }
        return items
    }

    func updateItems<Query: KeychainItemQuery>(_ query: Query, changes: some KeychainItemChanges) async throws(KeychainError) {
        let dictionary = selectionDictionary(query)
        let attributes = changes.entries.dictionary
        try await perform(.update, dictionary, changes: attributes) { () async throws(KeychainFailure) in
            try await client.update(dictionary, attributesToUpdate: attributes)
        }
    }

    func deleteItems<Query: KeychainItemQuery>(_ query: Query) async throws(KeychainError) {
        let dictionary = selectionDictionary(query)
        try await perform(.delete, dictionary) { () async throws(KeychainFailure) in try await client.delete(dictionary) }
    }

    /// Adds `item`, or, when an item with its primary key exists, updates that item's secret and the
    /// other attributes `item` sets.
    func setItem<Item: KeychainItem>(_ item: Item) async throws(KeychainError) {
        for _ in 0..<2 {
            do {
                _ = try await addItem(item)
                return
            } catch where error.status == .duplicateItem {}
            var attributes = item.attributes
            attributes.set(QueryKey.valueData, item.value)
            let plan = UpsertPlan(adding: attributes.dictionary, itemClass: Item.itemClass)
            do {
                try await perform(.update, plan.query, changes: plan.changes) { () async throws(KeychainFailure) in
                    try await client.update(plan.query, attributesToUpdate: plan.changes)
                }
                return
            } catch where error.status == .itemNotFound {
                continue  // deleted between the two calls: add again
            }
        }
        _ = try await addItem(item)
    }

    // MARK: Dictionaries

    private func searchDictionary<Query: KeychainItemQuery>(
        _ query: Query, withSecret: Bool, limit: KeychainValue
    ) -> QueryDictionary {
        var entries = query.entries
        entries[QueryKey.itemClass] = .string(Query.Item.itemClass.rawValue)
        entries[QueryKey.returnAttributes] = .bool(true)
        entries[QueryKey.returnPersistentRef] = .bool(true)
        if withSecret { entries[QueryKey.returnData] = .bool(true) }
        entries[QueryKey.matchLimit] = limit
        return entries.dictionary
    }

    /// The query for update and delete: the filters, plus a limit when the caller set one (which the
    /// keychain refuses, as Apple's does).
    private func selectionDictionary<Query: KeychainItemQuery>(_ query: Query) -> QueryDictionary {
        var entries = query.entries
        entries[QueryKey.itemClass] = .string(Query.Item.itemClass.rawValue)
        if let limit = query.limit { entries[QueryKey.matchLimit] = .number(Int64(limit)) }
        return entries.dictionary
    }

    // MARK: Calls and results

    /// Runs a dictionary call, turning its status into a ``KeychainError`` that carries the redacted query.
    @discardableResult
    func perform<Result>(
        _ operation: KeychainError.Operation, _ query: QueryDictionary, changes: QueryDictionary? = nil,
        _ body: () async throws(KeychainFailure) -> Result
    ) async throws(KeychainError) -> Result {
        do {
            return try await body()
        } catch {
            throw KeychainError(error, operation: operation, query: query, changes: changes)
        }
    }

    private func reader(
        of result: KeychainValue?, operation: KeychainError.Operation, query: QueryDictionary
    ) throws(KeychainError) -> AttributeReader {
        guard case .dictionary(let values)? = result else {
            throw unexpectedShape(result, operation: operation, query: query)
        }
        return AttributeReader(values: values)
    }

    private func unexpectedShape(
        _ result: KeychainValue?, operation: KeychainError.Operation, query: QueryDictionary
    ) -> KeychainError {
        KeychainError(
            status: .internal, operation: operation, query: query,
            reason: "The keychain returned \(result?.typeName ?? "nothing") where Coffer expected a dictionary of attributes.")
    }
}
