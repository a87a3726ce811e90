import KeychainClient
import KeychainModel
import Query

/// Items of every class: ``GenericPassword``, ``InternetPassword``.
extension Keychain {
    /// Adds an item and returns it as stored: with its access group, protection class, dates and
    /// persistent reference filled in.
    ///
    /// Throws ``KeychainError`` with `KeychainStatus.duplicateItem` (-25299) when an item with the same
    /// primary key exists (for a generic password: service, account, access group and synchronizable flag;
    /// use ``set(_:)`` to replace it), and `KeychainStatus.interactionNotAllowed` (-25308) when its class is
    /// locked. `authenticationContext` brings the application password an item with
    /// `AccessControlFlags.applicationPassword` is sealed with (``Keychain/setApplicationPassword(_:for:)``).
    @discardableResult
    public func add<Item: KeychainItem>(
        _ item: Item, authenticationContext: AuthenticationContext? = nil
    ) async throws(KeychainError) -> Item {
        var query = Item.schema.addDictionary(for: item)
        query[QueryKey.useAuthenticationContext] = authenticationContext?.queryValue
        query[QueryKey.returnAttributes] = .bool(true)
        query[QueryKey.returnPersistentRef] = .bool(true)
        let result = try await perform(.add, query) { () async throws(KeychainFailure) in try await client.add(query) }
        var stored: Item = try self.item(reading: result, operation: .add, query: query)
        stored.value = item.value
        return stored
    }

    /// Adds the item, or updates the existing item with its primary key: its secret and every other
    /// attribute `item` sets.
    ///
    /// Without an access group, the update applies to the items with this primary key in all of the
    /// caller's groups.
    public func set<Item: KeychainItem>(_ item: Item) async throws(KeychainError) {
        let attributes = Item.schema.addDictionary(for: item)
        for _ in 0..<2 {
            do {
                try await perform(.add, attributes) { () async throws(KeychainFailure) in try await client.add(attributes) }
                return
            } catch  where error.status == .duplicateItem {}
            let plan = UpsertPlan(adding: attributes, itemClass: Item.schema.itemClass)
            do {
                try await perform(.update, plan.query, changes: plan.changes) { () async throws(KeychainFailure) in
                    try await client.update(plan.query, attributesToUpdate: plan.changes)
                }
                return
            } catch  where error.status == .itemNotFound {
                continue  // deleted between the two calls: add again
            }
        }
        try await perform(.add, attributes) { () async throws(KeychainFailure) in try await client.add(attributes) }
    }

    /// The first item matching `query`, with its secret; nil when none matches.
    public func item<Item: KeychainItem>(matching query: ItemQuery<Item>) async throws(KeychainError) -> Item? {
        try await items(matching: query, withSecret: true, limit: .string(QueryConstant.matchLimitOne)).first
    }

    /// Every item matching `query` (up to its ``ItemQuery/limit``), with secrets. Empty when none matches.
    public func items<Item: KeychainItem>(matching query: ItemQuery<Item>) async throws(KeychainError) -> [Item] {
        try await items(matching: query, withSecret: true, limit: query.limitValue)
    }

    /// Every item matching `query`, without secrets: each item's ``KeychainItem/value`` is empty. Reading
    /// attributes only does not need the secrets' keys.
    ///
    /// Do not write these items back with ``set(_:)``, which would store the empty value; change
    /// attributes with ``update(matching:changes:)``.
    public func attributes<Item: KeychainItem>(matching query: ItemQuery<Item>) async throws(KeychainError) -> [Item] {
        try await items(matching: query, withSecret: false, limit: query.limitValue)
    }

    /// Changes every item matching `query`.
    ///
    /// Throws `KeychainStatus.itemNotFound` (-25300) when none matches, and
    /// `KeychainStatus.duplicateItem` (-25299), changing nothing, when a changed item would collide
    /// with another. Persistent references stay the same.
    public func update<Item: KeychainItem>(
        matching query: ItemQuery<Item>, changes: ItemChanges<Item>
    ) async throws(KeychainError) {
        let selection = query.selectionDictionary
        let attributes = changes.entries.dictionary
        try await perform(.update, selection, changes: attributes) { () async throws(KeychainFailure) in
            try await client.update(selection, attributesToUpdate: attributes)
        }
    }

    /// Deletes every item matching `query`; works while the keychain is locked.
    ///
    /// Throws `KeychainStatus.itemNotFound` (-25300) when none matches.
    public func delete<Item: KeychainItem>(matching query: ItemQuery<Item>) async throws(KeychainError) {
        let selection = query.selectionDictionary
        try await perform(.delete, selection) { () async throws(KeychainFailure) in try await client.delete(selection) }
    }
}
