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

/// The stored bytes of a row other than its identity; see ``ItemCrypto`` for the format.
struct SealedRow: Sendable {
    /// HMAC of the uniqueness bytes.
    var uniqueDigest: Data
    /// The item key, wrapped by the keyring.
    var wrappedKey: Data
    /// version ‖ nonce ‖ ciphertext ‖ tag of the attributes.
    var attributes: Data
    /// version ‖ nonce ‖ ciphertext ‖ tag of the secret.
    var secret: Data
    /// HMAC over everything else in the row.
    var rowTag: Data
    /// The blind-index columns, in the order of the table's ``TableSchema/codes``; nil = NULL.
    var indexes: [Data?]
}
