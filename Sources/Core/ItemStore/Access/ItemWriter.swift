import Foundation
import KeychainModel

/// Reads and writes within one ``ItemStore/write(_:)`` transaction. Valid only inside the body it was given to.
public struct ItemWriter: ItemReading {
    let reads: ReadAccess
    let writes: WriteAccess

    init(_ reads: ReadAccess, _ writes: WriteAccess) {
        self.reads = reads
        self.writes = writes
    }

    public func select(_ selection: ItemSelection) throws -> [StoredItem] { try reads.select(selection) }
    public func forEachRow(_ selection: ItemSelection, _ body: (StoredItem) throws -> Void) throws { try reads.forEachRow(selection, body) }
    public func openAttributes(_ item: StoredItem) throws -> Data { try reads.openAttributes(item) }
    public func openSecret(_ item: StoredItem) throws -> Data? { try reads.openSecret(item) }
    public func count(of itemClass: ItemClass) throws -> Int { try reads.count(of: itemClass) }

    /// Stores a new item: seals it (fresh item key, wrapped by the keyring), computes its blind indexes and
    /// uniqueness digest, and inserts the row.
    ///
    /// Throws ``ItemStoreError/duplicateItem`` when an item of the class has the same ``NewItem/uniqueKey``
    /// (decided by SQLite's UNIQUE constraint; the transaction stays usable) and
    /// ``ItemStoreError/duplicatePersistentRef`` when a given persistent reference is taken.
    /// Keyring errors propagate unchanged, before anything is written.
    @discardableResult
    public func insert(_ item: NewItem) throws -> StoredItem { try writes.insert(item) }

    /// Rewrites row `rowID` of `item.itemClass` with `item`: the same row and the same persistent
    /// reference, everything else (item key, protection class, attributes, secret, indexes) new.
    ///
    /// Throws ``ItemStoreError/notFound(rowID:)`` if there is no such row, ``ItemStoreError/duplicateItem``
    /// if another row has the new uniqueness bytes, and ``ItemStoreError/invalidArgument(_:)`` if
    /// `item.persistentRef` is set and differs from the row's.
    @discardableResult
    public func replace(rowID: Int64, with item: NewItem) throws -> StoredItem {
        try writes.replace(rowID: rowID, with: item)
    }

    /// Deletes rows of `itemClass` by row id (works in every lock state: needs no key); returns how many
    /// existed. Repeated ids count once.
    @discardableResult
    public func delete(rowIDs: [Int64], in itemClass: ItemClass) throws -> Int {
        try writes.delete(rowIDs: rowIDs, in: itemClass)
    }

    /// Deletes the given items (grouped by class); returns how many still existed.
    @discardableResult
    public func delete(_ items: [StoredItem]) throws -> Int {
        var deleted = 0
        for (itemClass, group) in Dictionary(grouping: items, by: \.itemClass) {
            deleted += try writes.delete(rowIDs: group.map(\.rowID), in: itemClass)
        }
        return deleted
    }
}
