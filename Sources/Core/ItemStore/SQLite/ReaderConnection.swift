import Foundation
import GRDBSQLite
import Synchronization

/// One read-only SQLite connection on the item database, driven through SQLite's C API.
///
/// Reads are the keychain's hot path: GRDB's pool adds a semaphore, a dispatch queue hop and its own
/// statement bookkeeping to every read (about 20 µs of a 95 µs lookup, measured), so readers are plain
/// connections with their prepared statements kept per SQL text. `query_only` makes a stray write fail.
///
/// Not thread-safe: ``ReaderPool`` hands a connection to one thread at a time.
final class ReaderConnection: @unchecked Sendable {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    /// How a reader opens the file.
    enum OpenMode: Sendable, Equatable {
        /// A read-write connection beside the store's writer (`query_only` still refuses writes): the
        /// normal keychain.
        case readWrite
        /// `SQLITE_OPEN_READONLY`: a read-only keychain whose `-shm` file exists or can be created.
        case readOnly
        /// `SQLITE_OPEN_READONLY` through the URI `file:…?immutable=1`: a read-only keychain whose `-shm`
        /// file does not exist and cannot be created, and whose write-ahead log is empty or absent —
        /// SQLite's documented way to read a WAL database on read-only media. No lock is taken and no file
        /// is created; a change made meanwhile by someone who can write would not be seen.
        case immutable
    }

    /// Opens `path` (which must exist: the writer created and migrated it) for reading, as `mode` says.
    init(path: String, busyTimeout: TimeInterval, mode: OpenMode = .readWrite) throws(ItemStoreError) {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        var name = path
        switch mode {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .immutable:
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = Self.immutableURI(path)
        }
        let code = sqlite3_open_v2(name, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw .io("SQLite error \(code): \(message)")
        }
        sqlite3_extended_result_codes(handle, 1)
        ItemStore.keepWriteAheadLogOnClose(handle)
        sqlite3_busy_timeout(handle, Int32(busyTimeout * 1000))
        do {
            // The same guards as the writer (see ItemStore.init), and no writes at all.
            // A larger page cache than SQLite's 2 MiB default keeps the upper levels of the indexes and of
            // the table of a large keychain in memory between lookups.
            try execute("PRAGMA query_only = ON; PRAGMA trusted_schema = OFF; PRAGMA cell_size_check = ON; PRAGMA cache_size = -16384")
        } catch {
            sqlite3_close_v2(handle)
            self.handle = nil
            throw error
        }
    }

    /// The URI `file:PATH?immutable=1`, with the characters a URI path cannot hold escaped.
    static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return "file:" + escaped + "?immutable=1"
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// The prepared statement for `sql`, prepared on first use and kept for the connection's life.
    func statement(_ sql: String) throws(ItemStoreError) -> OpaquePointer {
        try statement(key: sql) { sql }
    }

    /// The statement kept under `key`, prepared from `sql()` on first use. A key must name one SQL text
    /// for the connection's life; a short key saves building and hashing a long text on every call.
    func statement(key: String, sql: () -> String) throws(ItemStoreError) -> OpaquePointer {
        if let cached = statements[key] { return cached }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql(), -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code) }
        statements[key] = statement
        return statement
    }

    /// Runs `sql` (several statements allowed) once, unprepared.
    func execute(_ sql: String) throws(ItemStoreError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// The ``ItemStoreError`` of a failed call on this connection.
    func error(_ code: Int32) -> ItemStoreError {
        .io("SQLite error \(code): \(String(cString: sqlite3_errmsg(handle)))")
    }
}
