import Foundation
import KeychainModel

/// Read operations, shared by ``ItemReader`` and ``ItemWriter`` so that engine code can run on either.
public protocol ItemReading {
    /// The rows of `selection.itemClass` that match every filter, in row-id order.
    ///
    /// No decryption: needs only the index key, so it works in every lock state. Throws
    /// ``ItemStoreError/unknownAttribute(code:itemClass:)`` for a code without a column and
    /// ``ItemStoreError/unsupportedClass(_:)`` for a class without a table. A row whose plain columns
    /// are malformed is returned like any tampered row: opening it throws ``ItemStoreError/corrupt(rowID:)``.
    func select(_ selection: ItemSelection) throws -> [StoredItem]

    /// Calls `body` with each row ``select(_:)`` would return, in row-id order, one at a time: a selection of
    /// any size in the memory of one row. `body` may open the row but must not run another selection or
    /// write on this reader while the rows are being stepped; an error it throws ends the walk and propagates.
    func forEachRow(_ selection: ItemSelection, _ body: (StoredItem) throws -> Void) throws

    /// The item's attributes (the bytes given as ``NewItem/attributes``).
    ///
    /// Needs the metadata key of the item's protection class (and the index key, for the row tag); never
    /// unwraps the item key. Throws ``ItemStoreError/corrupt(rowID:)`` when the row fails authentication.
    func openAttributes(_ item: StoredItem) throws -> Data

    /// The item's secret (``NewItem/secret``; `nil` if it has none).
    ///
    /// Unwraps the item key through the keyring (whose errors propagate unchanged) and decrypts.
    /// Throws ``ItemStoreError/corrupt(rowID:)`` when the row fails authentication.
    func openSecret(_ item: StoredItem) throws -> Data?

    /// The number of rows of a class.
    func count(of itemClass: ItemClass) throws -> Int
}
