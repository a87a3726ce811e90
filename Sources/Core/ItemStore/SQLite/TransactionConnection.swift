import GRDB
import GRDBSQLite

/// The connection a read or write runs on, for the statements it steps through SQLite's C API.
enum TransactionConnection {
    /// GRDB's writer connection, inside ``ItemStore/write(_:)``.
    case writer(Database)
    /// A reader, inside ``ItemStore/read(_:)``.
    case reader(ReaderConnection)

    /// The prepared statement selecting rows of `table` with `clause` (from ``SelectionSQL``).
    func selectStatement(table: TableSchema, clause: String) throws -> RawStatement {
        switch self {
        case .writer: try statement(table.selectPrefix + clause)
        case .reader(let reader):
            RawStatement(handle: try reader.statement(key: table.table + clause) { table.selectPrefix + clause })
        }
    }

    /// The prepared statement for `sql` on this connection.
    func statement(_ sql: String) throws -> RawStatement {
        switch self {
        case .writer(let db): RawStatement(handle: try ItemStore.mappingErrors { try db.cachedStatement(sql: sql).sqliteStatement })
        case .reader(let reader): RawStatement(handle: try reader.statement(sql))
        }
    }

    /// The error of a failed step on this connection.
    func failure(_ code: Int32) -> ItemStoreError {
        switch self {
        case .writer(let db): .io("SQLite error \(code): \(db.sqliteConnection.map { String(cString: sqlite3_errmsg($0)) } ?? "")")
        case .reader(let reader): reader.error(code)
        }
    }
}
