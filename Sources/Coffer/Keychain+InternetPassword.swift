/// Internet passwords.
extension Keychain {
    /// Adds a internet password and returns it as stored: with its access group, protection class,
    /// dates and persistent reference filled in.
    ///
    /// Throws ``KeychainError`` with `KeychainStatus.duplicateItem` (-25299) when an item with the same
    /// primary key (server, account, security domain, protocol, authentication type, port, path, access
    /// group, synchronizable flag) exists (use ``set(_:)-(InternetPassword)``
    /// to replace it), and `KeychainStatus.interactionNotAllowed` (-25308) when its class is locked.
    @discardableResult
    public func add(_ item: InternetPassword) async throws(KeychainError) -> InternetPassword {
        try await addItem(item)
    }

    /// Adds the item, or updates the existing item with its primary key: its secret and every other
    /// attribute `item` sets.
    ///
    /// Without an ``InternetPassword/accessGroup``, the update applies to the items with this primary
    /// key in all of the caller's groups.
    public func set(_ item: InternetPassword) async throws(KeychainError) {
        try await setItem(item)
    }

    /// The first internet password matching `query`, with its secret; nil when none matches.
    public func item(matching query: InternetPasswordQuery) async throws(KeychainError) -> InternetPassword? {
        try await firstItem(query, withSecret: true)
    }

    /// Every internet password matching `query` (up to its ``InternetPasswordQuery/limit``), with secrets.
    /// Empty when none matches.
    public func items(matching query: InternetPasswordQuery) async throws(KeychainError) -> [InternetPassword] {
        try await allItems(query, withSecret: true)
    }

    /// Every internet password matching `query`, without secrets: each item's ``InternetPassword/value``
    /// is empty. Reading attributes only does not need the secrets' keys.
    ///
    /// Do not write these items back with ``set(_:)-(InternetPassword)``, which would store the empty
    /// value; change attributes with ``update(matching:changes:)-(InternetPasswordQuery,_)``.
    public func attributes(matching query: InternetPasswordQuery) async throws(KeychainError) -> [InternetPassword] {
        try await allItems(query, withSecret: false)
    }

    /// Changes every internet password matching `query`.
    ///
    /// Throws `KeychainStatus.itemNotFound` (-25300) when none matches, and
    /// `KeychainStatus.duplicateItem` (-25299), changing nothing, when a changed item would collide
    /// with another. Persistent references stay the same.
    public func update(matching query: InternetPasswordQuery, changes: InternetPasswordChanges) async throws(KeychainError) {
        try await updateItems(query, changes: changes)
    }

    /// Deletes every internet password matching `query`; works while the keychain is locked.
    ///
    /// Throws `KeychainStatus.itemNotFound` (-25300) when none matches.
    public func delete(matching query: InternetPasswordQuery) async throws(KeychainError) {
        try await deleteItems(query)
    }
}
