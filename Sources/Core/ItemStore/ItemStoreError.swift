import KeychainModel

/// Errors that ``ItemStore`` itself raises.
///
/// Errors thrown by the ``ItemKeyring`` or by the caller's own `read`/`write` body are **not**
/// wrapped: they come out of ``ItemStore/read(_:)`` and ``ItemStore/write(_:)`` unchanged.
/// No case ever carries an attribute value, a secret or key material.
public enum ItemStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another item of the class already has the same uniqueness bytes (`NewItem.uniqueKey`).
    /// SQLite's UNIQUE constraint decided it, atomically across connections and processes.
    /// The enclosing write transaction stays usable: only the failed statement was undone.
    case duplicateItem

    /// `NewItem.persistentRef` names a persistent reference that another item of the class already has.
    case duplicatePersistentRef

    /// The row's sealed data fails authentication (tampered, moved from another row, truncated)
    /// or the row is malformed. Other rows are unaffected.
    case corrupt(rowID: Int64)

    /// No row of the class has this row id (``ItemWriter/replace(rowID:with:)``).
    case notFound(rowID: Int64)

    /// The store has no table for this class (identities are a join done by the engine).
    case unsupportedClass(ItemClass)

    /// An attribute code has no blind-index column in the class's table. A programming error in the
    /// caller: ``ItemStore/indexedAttributes(for:)`` lists the codes that do.
    case unknownAttribute(code: String, itemClass: ItemClass)

    /// An argument breaks the API contract (for example a persistent reference that is not 16 bytes).
    case invalidArgument(String)

    /// SQLite failed. The message names the SQLite result code and SQLite's own text, which can
    /// name tables and columns but never values (every value is a bound parameter, and only
    /// ciphertext and HMACs are bound).
    case io(String)

    /// The store was opened read-only (its folder or file is not writable by this process), so the write
    /// was refused before anything was written. The message says what is read-only.
    case readOnly(String)

    /// A short text for logs and people; never holds a value, a secret or key material.
    public var description: String {
        switch self {
        case .duplicateItem: "duplicate item"
        case .duplicatePersistentRef: "duplicate persistent reference"
        case .corrupt(let rowID): "row \(rowID) is corrupt (authentication failed or malformed)"
        case .notFound(let rowID): "row \(rowID) not found"
        case .unsupportedClass(let itemClass): "item class \(itemClass.rawValue) has no table"
        case .unknownAttribute(let code, let itemClass): "attribute \(code) has no index column in \(itemClass.rawValue)"
        case .invalidArgument(let why): "invalid argument: \(why)"
        case .io(let message): "database error: \(message)"
        case .readOnly(let message): "read-only: \(message)"
        }
    }
}
