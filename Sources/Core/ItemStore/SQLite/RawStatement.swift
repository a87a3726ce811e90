import Foundation
import GRDBSQLite

/// The C-API steps the read path runs on a prepared statement, whichever connection prepared it
/// (a ``ReaderConnection``, or GRDB's writer connection inside a write transaction).
struct RawStatement {
    let handle: OpaquePointer

    /// Resets the statement and binds `bindings` to its parameters, in order.
    func bind(_ bindings: [SQLBinding]) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
        for (offset, binding) in bindings.enumerated() {
            let index = Int32(offset + 1)
            switch binding {
            case .blob(let data):
                data.withUnsafeBytes { bytes in
                    // A zero-length blob needs a non-NULL pointer, or SQLite binds NULL.
                    let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
                    _ = sqlite3_bind_blob(handle, index, base, Int32(bytes.count), transient)
                }
            case .integer(let value):
                sqlite3_bind_int64(handle, index, value)
            }
        }
    }

    /// Steps once: `true` for a row, `false` when done; an SQLite failure is thrown as `failure(code)`.
    func step(_ failure: (Int32) -> ItemStoreError) throws(ItemStoreError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw failure(code)
        }
    }

    /// Resets the statement and drops its bindings, so no bound bytes stay referenced between calls.
    func finish() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// The column's SQLite type (`SQLITE_BLOB`, `SQLITE_INTEGER`, `SQLITE_NULL`, …).
    func type(_ column: Int32) -> Int32 { sqlite3_column_type(handle, column) }

    /// The column's bytes when it is a blob, `nil` for any other type.
    func blob(_ column: Int32) -> Data? {
        guard sqlite3_column_type(handle, column) == SQLITE_BLOB else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let base = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: base, count: count)
    }

    /// Calls `body` with the column's bytes, in SQLite's memory, when it is a blob; `false` for any other type.
    /// The bytes are valid only during `body`.
    func withBlob(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
        guard sqlite3_column_type(handle, column) == SQLITE_BLOB else { return false }
        let base = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count == 0 || base != nil else { return false }
        body(UnsafeRawBufferPointer(start: base, count: count))
        return true
    }

    /// The column's value when it is an integer, `nil` for any other type.
    func integer(_ column: Int32) -> Int64? {
        guard sqlite3_column_type(handle, column) == SQLITE_INTEGER else { return nil }
        return sqlite3_column_int64(handle, column)
    }

    /// The column's text when it is text, `nil` for any other type.
    func text(_ column: Int32) -> String? {
        guard sqlite3_column_type(handle, column) == SQLITE_TEXT, let text = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: text)
    }
}
