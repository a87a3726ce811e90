extension KeychainEngine {
    /// The bytes the item database's pages in use take (see `ItemStore.bytesInUse()`): what a storage
    /// quota counts for the items, since deleting items frees pages that later adds reuse.
    public func databaseBytesInUse() throws -> Int64 {
        try store.bytesInUse()
    }
}
