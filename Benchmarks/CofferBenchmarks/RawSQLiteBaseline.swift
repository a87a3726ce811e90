import Foundation
import GRDBSQLite

/// The raw SQLite C API on a table of the same shape as the keychain's (indexed blob key columns, a
/// UNIQUE key, a blob payload), with the same durability (WAL, synchronous=FULL): the floor any
/// keychain built on SQLite can reach.
final class RawSQLiteBaseline {
    private var database: OpaquePointer?
    private var insertStatement: OpaquePointer?
    private var lookupStatement: OpaquePointer?
    private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    init(path: String) throws {
        guard sqlite3_open(path, &database) == SQLITE_OK else { throw BenchmarkError("cannot open \(path)") }
        try execute(
            """
            PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;
            CREATE TABLE IF NOT EXISTS genp (rowid INTEGER PRIMARY KEY, acct BLOB, svce BLOB, agrp BLOB, ukey BLOB UNIQUE, data BLOB);
            CREATE INDEX IF NOT EXISTS genp_acct ON genp(acct); CREATE INDEX IF NOT EXISTS genp_svce ON genp(svce);
            """)
        sqlite3_prepare_v2(database, "INSERT INTO genp (acct, svce, agrp, ukey, data) VALUES (?, ?, ?, ?, ?)", -1, &insertStatement, nil)
        sqlite3_prepare_v2(database, "SELECT data FROM genp WHERE acct = ? AND svce = ? AND agrp = ?", -1, &lookupStatement, nil)
    }

    deinit {
        sqlite3_finalize(insertStatement)
        sqlite3_finalize(lookupStatement)
        sqlite3_close(database)
    }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchmarkError(String(cString: sqlite3_errmsg(database)))
        }
    }

    /// Inserts `count` rows starting at `start` in one transaction (population, not measured).
    func populate(from start: Int, count: Int) throws {
        try execute("BEGIN IMMEDIATE")
        for index in start..<(start + count) { try insert(account: index) }
        try execute("COMMIT")
    }

    /// Gathers planner statistics, as the keychain's store ships them: without them SQLite answers the
    /// three-column lookup through the one-valued `svce` index, which is a scan.
    func analyze() throws { try execute("ANALYZE") }

    /// One durable insert in its own transaction.
    func durableInsert(account: Int) throws {
        try execute("BEGIN IMMEDIATE")
        try insert(account: account)
        try execute("COMMIT")
    }

    /// One indexed point lookup; returns the payload size.
    func lookup(account: Int) throws -> Int {
        let statement = lookupStatement
        defer { sqlite3_reset(statement) }
        bind(statement, 1, Self.key("acct", account))
        bind(statement, 2, Self.key("svce", 0))
        bind(statement, 3, Self.key("agrp", 0))
        guard sqlite3_step(statement) == SQLITE_ROW else { throw BenchmarkError("row \(account) not found") }
        return Int(sqlite3_column_bytes(statement, 0))
    }

    private func insert(account: Int) throws {
        let statement = insertStatement
        defer { sqlite3_reset(statement) }
        bind(statement, 1, Self.key("acct", account))
        bind(statement, 2, Self.key("svce", 0))
        bind(statement, 3, Self.key("agrp", 0))
        bind(statement, 4, Self.key("ukey", account))
        bind(statement, 5, [UInt8](repeating: 0xAB, count: 120))
        guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchmarkError(String(cString: sqlite3_errmsg(database))) }
    }

    private func bind(_ statement: OpaquePointer?, _ index: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transient) }
    }

    /// 32 pseudo-random bytes per (column, value), like a blind index.
    private static func key(_ column: String, _ value: Int) -> [UInt8] {
        var state = UInt64(truncatingIfNeeded: value) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: column.hashValue)
        return (0..<32).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
