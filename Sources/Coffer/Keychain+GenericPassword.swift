/// Generic passwords.
extension Keychain {
    /// Adds a generic password and returns it as stored: with its access group, protection class,
    /// dates and persistent reference filled in.
    ///
    /// Throws ``KeychainError`` with `KeychainStatus.duplicateItem` (-25299) when an item with the same
    /// service, account, access group and synchronizable flag exists (use ``set(_:)-(GenericPassword)``
    /// to replace it), and `KeychainStatus.interactionNotAllowed` (-25308) when its class is locked.
    @discardableResult
    public func add(_ item: GenericPassword) async throws(KeychainError) -> GenericPassword {
        try await addItem(item)
    }

    /// Adds the item, or updates the existing item with its primary key: its secret and every other
    /// attribute `item` sets.
    ///
    /// Without an ``GenericPassword/accessGroup``, the update applies to the items with this service,
    /// account and synchronizable flag in all of the caller's groups.
    public func set(_ item: GenericPassword) async throws(KeychainError) {
        try await setItem(item)
    }

    /// The first generic password matching `query`, with its secret; nil when none matches.
    public func item(matching query: GenericPasswordQuery) async throws(KeychainError) -> GenericPassword? {
        try await firstItem(query, withSecret: true)
    }

    /// Every generic password matching `query` (up to its ``GenericPasswordQuery/limit``), with secrets.
    /// Empty when none matches.
    public func items(matching query: GenericPasswordQuery) async throws(KeychainError) -> [GenericPassword] {
        try await allItems(query, withSecret: true)
    }

    /// Every generic password matching `query`, without secrets: each item's ``GenericPassword/value``
    /// is empty. Reading attributes only does not need the secrets' keys.
    ///
    /// Do not write these items back with ``set(_:)-(GenericPassword)``, which would store the empty
    /// value; change attributes with ``update(matching:changes:)-(GenericPasswordQuery,_)``.
    public func attributes(matching query: GenericPasswordQuery) async throws(KeychainError) -> [GenericPassword] {
        try await allItems(query, withSecret: false)
    }

    /// Changes every generic password matching `query`.
    ///
    /// Throws `KeychainStatus.itemNotFound` (-25300) when none matches, and
    /// `KeychainStatus.duplicateItem` (-25299), changing nothing, when a changed item would collide
    /// with another. Persistent references stay the same.
    public func update(matching query: GenericPasswordQuery, changes: GenericPasswordChanges) async throws(KeychainError) {
        try await updateItems(query, changes: changes)
    }

    /// Deletes every generic password matching `query`; works while the keychain is locked.
    ///
    /// Throws `KeychainStatus.itemNotFound` (-25300) when none matches.
    public func delete(matching query: GenericPasswordQuery) async throws(KeychainError) {
        try await deleteItems(query)
    }
}
