import Foundation
import GRDB
import KeychainModel

/// Raw access for tests and diagnostics (internal): reads and writes stored bytes without the item format,
/// so that tests can tamper with rows and check pragmas without importing GRDB.
extension ItemStore {
    /// Runs `body` on the writer connection outside any transaction (tests read pragmas with it).
    func withWriterConnection<T>(_ body: (Database) throws -> T) throws -> T {
        try requireWriter().writeWithoutTransaction(body)
    }

    /// The fixed columns of a row that tests may read or overwrite, plus `i_<code>` index columns.
    static func isInspectableColumn(_ column: String) -> Bool {
        ["pref", "keyclass", "ukey", "wkey", "attrs", "secret", "tag"].contains(column)
            || (column.hasPrefix("i_") && TableSchema.isValidCode(String(column.dropFirst(2))))
    }

    /// The raw bytes of `column` in row `rowID` of `itemClass`'s table (`nil` for NULL or no row).
    func rawBlob(_ column: String, of itemClass: ItemClass, rowID: Int64) throws -> Data? {
        precondition(Self.isInspectableColumn(column))
        let table = try Schema.table(itemClass)
        return try withWriterConnection { db in
            try Data.fetchOne(db, sql: "SELECT \(column) FROM \(table.table) WHERE rowid = ?", arguments: [rowID])
        }
    }

    /// Overwrites `column` of row `rowID` with raw bytes (no row tag update), in its own transaction.
    func setRawBlob(_ column: String, of itemClass: ItemClass, rowID: Int64, to value: Data?) throws {
        precondition(Self.isInspectableColumn(column))
        let table = try Schema.table(itemClass)
        try withWriterConnection { db in
            try db.execute(sql: "UPDATE \(table.table) SET \(column) = ? WHERE rowid = ?", arguments: [value, rowID])
        }
    }

    /// The value of a pragma on the writer connection, as text.
    func writerPragma(_ name: String) throws -> String? {
        precondition(name.allSatisfy { $0.isLetter || $0 == "_" })
        return try withWriterConnection { db in try String.fetchOne(db, sql: "PRAGMA \(name)") }
    }

    /// Runs a WAL checkpoint (TRUNCATE), moving committed pages into the database file.
    func checkpoint() throws {
        try withWriterConnection { db in _ = try db.checkpoint(.truncate) }
    }
}

extension ItemStore {
    /// SQLite's plan for a selection (`EXPLAIN QUERY PLAN`, the `detail` column joined with "; ").
    /// `onWriter` asks the writer connection (inside ``write(_:)``) instead of a reader.
    func queryPlan(_ selection: ItemSelection, onWriter: Bool = false) throws -> String {
        let details = onWriter ? try write { try $0.reads.queryPlan(selection) } : try read { try $0.reads.queryPlan(selection) }
        return details.joined(separator: "; ")
    }
}

extension ItemStore {
    /// Creates (or migrates) the database at `url` up to and including `migration` only, as an older
    /// Coffer would have left it (tests of later migrations).
    static func migrateDatabase(at url: URL, upTo migration: String) throws {
        let queue = try DatabaseQueue(path: url.path)
        try Schema.migrator.migrate(queue, upTo: migration)
    }

    /// The migrations applied to the database at `url`, in order.
    static func appliedMigrations(inDatabaseAt url: URL) throws -> [String] {
        try DatabaseQueue(path: url.path).read { db in try Schema.migrator.appliedMigrations(db) }
    }

    /// The SQL that created an index of the database at `url`, from `sqlite_master`.
    static func indexSQL(_ name: String, inDatabaseAt url: URL) throws -> String? {
        try DatabaseQueue(path: url.path).read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", arguments: [name])
        }
    }
}
