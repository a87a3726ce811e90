import Foundation
import KeychainModel

/// A stored row as selected: its identity in plaintext, its sealed parts opaque.
///
/// Getting one needs no key except the index key; open it with ``ItemReader/openAttributes(_:)``
/// (metadata key) or ``ItemReader/openSecret(_:)`` (item key, unwrapped by the keyring).
/// It is a snapshot: after a write, select again.
public struct StoredItem: Sendable {
    /// The SQLite row id within the class's table (never reused: the tables are AUTOINCREMENT).
    public let rowID: Int64
    /// The class (table) of the row.
    public let itemClass: ItemClass
    /// The protection class the row is sealed under.
    public let protection: ProtectionClass
    /// The 16-byte persistent reference; stable across ``ItemWriter/replace(rowID:with:)``.
    public let persistentRef: Data

    /// The sealed parts as stored. A row this store just wrote carries all of them; a row read by a
    /// selection carries what opening needs (wrapped key, attributes, secret), its tag having been checked.
    let sealed: SealedRow
    /// Whether the row tag matched when the row was read (rows this store just wrote are valid).
    /// Checked once per read, so opening both attributes and secret does not verify twice.
    let tagIsValid: Bool
}

extension StoredItem {
    /// The row reduced to its identity (row id, class, protection, persistent reference), without its sealed
    /// parts: what a result that keeps only persistent references holds per row, so that listing many rows
    /// costs little memory. It cannot be opened (opening it fails as a corrupt row does).
    public var identityOnly: StoredItem {
        StoredItem(
            rowID: rowID, itemClass: itemClass, protection: protection, persistentRef: persistentRef,
            sealed: SealedRow(uniqueDigest: Data(), wrappedKey: Data(), attributes: Data(), secret: Data(), rowTag: Data(), indexes: []),
            tagIsValid: false)
    }
}
