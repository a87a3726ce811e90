import Foundation
import GRDBSQLite

/// The cheapest correct way to do a keychain's durable work on SQLite, through its C API in the benchmark's
/// own process: WAL, `synchronous=FULL`, one table with a unique index on service and account and the 32-byte
/// secret in the row. A find is one indexed lookup that copies the secret out; an add is `BEGIN IMMEDIATE`,
/// one `INSERT`, `COMMIT`. The floor `SecItemCopyMatching` and `SecItemAdd` are compared with (`apple` suite).
final class SQLiteFloor {
    private var database: OpaquePointer?
    private var insertStatement: OpaquePointer?
    private var lookupStatement: OpaquePointer?
    private var beginStatement: OpaquePointer?
    private var commitStatement: OpaquePointer?
    private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    init(path: String) throws {
        guard sqlite3_open(path, &database) == SQLITE_OK else { throw BenchmarkError("cannot open \(path)") }
        try execute(
            """
            PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;
            CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, service TEXT NOT NULL, account TEXT NOT NULL,
                secret BLOB NOT NULL, UNIQUE (service, account));
            """)
        try prepare("INSERT INTO items (service, account, secret) VALUES (?, ?, ?)", &insertStatement)
        try prepare("SELECT secret FROM items WHERE service = ? AND account = ?", &lookupStatement)
        try prepare("BEGIN IMMEDIATE", &beginStatement)
        try prepare("COMMIT", &commitStatement)
    }

    deinit {
        for statement in [insertStatement, lookupStatement, beginStatement, commitStatement] { sqlite3_finalize(statement) }
        sqlite3_close(database)
    }

    /// Inserts the rows of `accounts` in one transaction (population, not measured).
    func populate(service: String, accounts: Range<Int>, secret: Data) throws {
        try step(beginStatement)
        for account in accounts { try insert(service: service, account: "account-\(account)", secret: secret) }
        try step(commitStatement)
    }

    /// One durable add in its own transaction.
    func add(service: String, account: String, secret: Data) throws {
        try step(beginStatement)
        try insert(service: service, account: account, secret: secret)
        try step(commitStatement)
    }

    /// One indexed lookup, the secret copied out.
    func find(service: String, account: String) throws -> Data {
        let statement = lookupStatement
        defer { sqlite3_reset(statement) }
        bind(statement, 1, service)
        bind(statement, 2, account)
        guard sqlite3_step(statement) == SQLITE_ROW else { throw BenchmarkError("\(account) not found") }
        return Data(bytes: sqlite3_column_blob(statement, 0), count: Int(sqlite3_column_bytes(statement, 0)))
    }

    private func insert(service: String, account: String, secret: Data) throws {
        let statement = insertStatement
        defer { sqlite3_reset(statement) }
        bind(statement, 1, service)
        bind(statement, 2, account)
        _ = secret.withUnsafeBytes { sqlite3_bind_blob(statement, 3, $0.baseAddress, Int32($0.count), transient) }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchmarkError(String(cString: sqlite3_errmsg(database))) }
    }

    private func bind(_ statement: OpaquePointer?, _ index: Int32, _ text: String) {
        _ = sqlite3_bind_text(statement, index, text, -1, transient)
    }

    private func step(_ statement: OpaquePointer?) throws {
        defer { sqlite3_reset(statement) }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchmarkError(String(cString: sqlite3_errmsg(database))) }
    }

    private func prepare(_ sql: String, _ statement: inout OpaquePointer?) throws {
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchmarkError(String(cString: sqlite3_errmsg(database)))
        }
    }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchmarkError(String(cString: sqlite3_errmsg(database)))
        }
    }
}
