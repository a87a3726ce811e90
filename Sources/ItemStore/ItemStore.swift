import Foundation
import GRDB
import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// Keychain items stored encrypted in SQLite: one table per item class, blind indexes for matching,
/// a UNIQUE digest for duplicates, sealed attributes and secrets (see ``ItemCrypto`` for the format).
///
/// The store knows nothing of Apple's query rules; the engine turns queries into ``ItemSelection``s and
/// items into ``NewItem``s. No GRDB type appears in this API.
///
/// ## Concurrency
/// - One writer, concurrent readers: ``write(_:)`` runs one `BEGIN IMMEDIATE` transaction on the single
///   writer connection; ``read(_:)`` runs a read transaction (a WAL snapshot) on one of a pool of reader
///   connections, concurrently with other reads and with the write.
/// - Several stores — in one process or in several — may open the same file: SQLite's WAL locking
///   serializes writers across them, waiting up to 5 s (`busy_timeout`) before ``ItemStoreError/io(_:)``.
/// - Calls block the calling thread. They are **not reentrant**: calling ``read(_:)`` or ``write(_:)``
///   from inside a body traps. A reader or writer must not be used after its body returns.
///
/// ## Durability
/// WAL with `synchronous = FULL`: when ``write(_:)`` returns, the transaction is on disk (the WAL is
/// fsynced at commit) and survives `kill -9` (tested) and power loss (by SQLite's contract; not testable here).
///
/// ## What the file shows
/// No attribute value and no secret: the file (and its `-wal`, `-shm`) holds ciphertexts, wrapped keys and
/// HMACs only. It does show, per table: the number of rows, each row's protection class and persistent
/// reference, sealed sizes rounded up to 32 bytes, and — as any blind index must — which rows share a value
/// of the same attribute (not across attributes or tables). Deleted rows are zeroed in the database file
/// (`secure_delete`); their old WAL frames remain until the WAL is reused or truncated.
public final class ItemStore: Sendable {
    /// The database file.
    public let databaseURL: URL
    let keyring: any ItemKeyring
    let connection: Connection
    let options: Options

    /// Opens the store at `databaseURL`, creating the file (mode 0600) if needed, and migrates the schema.
    ///
    /// The folder is the caller's (it should be 0700); SQLite creates `-wal` and `-shm` beside the file
    /// with the file's mode. Throws ``ItemStoreError/io(_:)`` when the file cannot be opened or migrated.
    public convenience init(databaseURL: URL, keyring: any ItemKeyring) throws {
        try self.init(databaseURL: databaseURL, keyring: keyring, options: Options())
    }

    /// Opens with explicit connection options (benchmarks and tests compare them).
    init(databaseURL: URL, keyring: any ItemKeyring, options: Options) throws {
        self.databaseURL = databaseURL
        self.keyring = keyring
        self.options = options
        let path = databaseURL.path
        try Self.createFileIfMissing(path)
        do {
            var configuration = Configuration()
            configuration.label = "Coffer.ItemStore"
            configuration.busyMode = .timeout(options.busyTimeout)
            configuration.maximumReaderCount = options.maximumReaderCount
            configuration.publicStatementArguments = false  // never put bound values in errors or logs
            configuration.prepareDatabase { db in
                // Do not run SQL functions from schema entries of a (possibly tampered) file; check cell
                // sizes so that a damaged page is reported, not misread; overwrite deleted content with zeros,
                // so that a deleted item's wrapped key and ciphertexts do not linger in free pages of the
                // database file (old WAL frames linger until the WAL is overwritten or truncated).
                try db.execute(sql: "PRAGMA trusted_schema = OFF; PRAGMA cell_size_check = ON; PRAGMA secure_delete = ON")
            }
            switch options.backend {
            case .pool:
                connection = .pool(try DatabasePool(path: path, configuration: configuration))
            case .queue:
                configuration.journalMode = .wal
                connection = .queue(try DatabaseQueue(path: path, configuration: configuration))
            }
            try connection.writer.writeWithoutTransaction { db in
                // GRDB switches WAL databases to synchronous=NORMAL, which may lose the last commits on power
                // loss; a keychain write must be durable when it returns.
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            try migrate()
        } catch let error as DatabaseError {
            throw Self.storeError(error)
        }
    }

    // MARK: - Transactions

    /// Runs `body` on a consistent snapshot of the database (one read transaction).
    ///
    /// Errors thrown by `body` — including ``ItemKeyring`` errors — come out unchanged; SQLite failures
    /// come out as ``ItemStoreError``.
    @discardableResult
    public func read<T>(_ body: (ItemReader) throws -> T) throws -> T {
        try mappingErrors {
            switch (connection, options.readMode) {
            case (.pool(let pool), .manualTransaction):
                try pool.unsafeRead { db in
                    try Self.transaction(db, begin: "BEGIN DEFERRED") { try body(ItemReader(access(db))) }
                }
            case (.pool(let pool), .grdb):
                try pool.read { db in try body(ItemReader(access(db))) }
            case (.queue(let queue), .manualTransaction):
                try queue.inDatabase { db in
                    try Self.transaction(db, begin: "BEGIN DEFERRED") { try body(ItemReader(access(db))) }
                }
            case (.queue(let queue), .grdb):
                try queue.read { db in try body(ItemReader(access(db))) }
            }
        }
    }

    /// Runs `body` in ONE immediate write transaction: it commits (durably) when `body` returns and rolls
    /// back everything when `body` throws.
    ///
    /// Errors thrown by `body` — including ``ItemKeyring`` errors — come out unchanged; SQLite failures
    /// (including a commit that fails, or waiting more than 5 s for another writer) come out as
    /// ``ItemStoreError``.
    @discardableResult
    public func write<T>(_ body: (ItemWriter) throws -> T) throws -> T {
        try mappingErrors {
            switch options.writeMode {
            case .manualTransaction:
                try connection.writer.writeWithoutTransaction { db in
                    try Self.transaction(db, begin: "BEGIN IMMEDIATE") { try body(ItemWriter(access(db))) }
                }
            case .grdb:
                try connection.writer.writeWithoutTransaction { db in
                    var result: T?
                    try db.inTransaction(.immediate) {
                        result = try body(ItemWriter(access(db)))
                        return .commit
                    }
                    return result!
                }
            }
        }
    }

    // MARK: - Schema facts

    /// The attribute codes that have a blind-index column in `itemClass`'s table: the codes that
    /// ``ItemSelection`` may filter on and that ``NewItem/indexValues`` may hold. Empty for a class
    /// without a table.
    public static func indexedAttributes(for itemClass: ItemClass) -> Set<String> {
        Schema.tables[itemClass]?.codeSet ?? []
    }

    /// Whether the store has a table for `itemClass` (today generic and internet passwords).
    public static func supports(_ itemClass: ItemClass) -> Bool {
        Schema.tables[itemClass] != nil
    }

    // MARK: - Internals

    private func access(_ db: Database) -> ItemAccess {
        ItemAccess(db: db, keyring: keyring)
    }

    /// Runs the migrations. Two openers racing on a new file may both see v1 missing; the loser's
    /// `CREATE TABLE` then fails after waiting for the winner's transaction, and running the migrator again
    /// finds v1 applied. GRDB reads the applied migrations outside its migration transaction, hence the retry.
    private func migrate() throws {
        // Checking first, in a read, keeps an up-to-date keychain's open free of writes: the migrator
        // itself always commits a write transaction, which costs an fsync at every process start.
        if try connection.writer.unsafeReentrantRead({ try Schema.migrator.hasCompletedMigrations($0) }) { return }
        var attempt = 0
        while true {
            do {
                try Schema.migrator.migrate(connection.writer)
                return
            } catch let error as DatabaseError where attempt < 3 {
                _ = error
                attempt += 1
            }
        }
    }

    /// Runs `body` between `begin` and `COMMIT`, both cached statements; rolls back when `body` throws.
    ///
    /// GRDB's own `read {}` (savepoint, schema-cache check) and `inTransaction` (statements prepared per
    /// call) cost 25–35 µs more per call in a debug build (`ItemStoreBenchmark` measures both).
    static func transaction<T>(_ db: Database, begin: String, _ body: () throws -> T) throws -> T {
        try db.cachedStatement(sql: begin).execute()
        do {
            let result = try body()
            guard db.isInsideTransaction else {
                // SQLite rolled the transaction back itself (e.g. SQLITE_FULL, SQLITE_IOERR).
                throw ItemStoreError.io("transaction was aborted by SQLite")
            }
            try db.cachedStatement(sql: "COMMIT").execute()
            return result
        } catch {
            if db.isInsideTransaction { try? db.cachedStatement(sql: "ROLLBACK").execute() }
            throw error
        }
    }

    /// Maps GRDB's errors to ``ItemStoreError``; leaves every other error unchanged.
    private func mappingErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw Self.storeError(error)
        }
    }

    /// The ``ItemStoreError`` of an SQLite error: a UNIQUE violation (extended code 2067) is a duplicate;
    /// anything else is I/O with SQLite's code and text (which hold no bound values).
    static func storeError(_ error: DatabaseError) -> ItemStoreError {
        if error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE { return .duplicateItem }
        let code = error.extendedResultCode.rawValue
        return .io("SQLite error \(code): \(error.message ?? "no message")")
    }

    /// Creates the database file with mode 0600 unless it exists. `O_EXCL` means an existing file is never
    /// opened here: closing a descriptor of a file that SQLite has open in this process would drop
    /// SQLite's POSIX locks on it.
    private static func createFileIfMissing(_ path: String) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd >= 0 {
            // The mode argument is filtered by umask; 0600 is what we want whatever the umask.
            _ = fchmod(fd, 0o600)
            close(fd)
            return
        }
        let code = errno
        guard code == EEXIST else {
            throw ItemStoreError.io("cannot create the database file: \(String(cString: strerror(code)))")
        }
    }
}

extension ItemStore {
    /// How the store connects; the defaults are what production uses.
    struct Options: Sendable {
        /// Which GRDB connection type.
        enum Backend: Sendable { case pool, queue }
        /// How transactions are opened.
        enum TransactionMode: Sendable {
            /// `BEGIN …`/`COMMIT` as cached statements.
            case manualTransaction
            /// GRDB's `read {}` / `inTransaction(.immediate)`.
            case grdb
        }

        var backend: Backend = .pool
        var readMode: TransactionMode = .manualTransaction
        var writeMode: TransactionMode = .manualTransaction
        var busyTimeout: TimeInterval = 5
        var maximumReaderCount = 4
    }

    /// The open connection(s).
    enum Connection: Sendable {
        case pool(DatabasePool)
        case queue(DatabaseQueue)

        var writer: any DatabaseWriter {
            switch self {
            case .pool(let pool): pool
            case .queue(let queue): queue
            }
        }
    }

    /// Runs `body` on the writer connection outside any transaction (tests read pragmas with it).
    func withWriterConnection<T>(_ body: (Database) throws -> T) throws -> T {
        try connection.writer.writeWithoutTransaction(body)
    }
}
