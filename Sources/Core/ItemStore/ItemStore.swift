import CSQLiteShims
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
///   writer connection (GRDB); ``read(_:)`` runs selections, each one statement on its own WAL snapshot, on a
///   reader connection of its own (SQLite's C API, see ``ReaderConnection``), concurrently with other reads and
///   with the write.
/// - Several stores — in one process or in several — may open the same file: SQLite's WAL locking
///   serializes writers across them, waiting up to 5 s (`busy_timeout`) before ``ItemStoreError/io(_:)``.
/// - Calls block the calling thread. They are **not reentrant**: calling ``read(_:)`` or ``write(_:)``
///   from inside a body traps. A reader or writer must not be used after its body returns.
///
/// ## Durability
/// WAL with `synchronous = FULL`: when ``write(_:)`` returns, the transaction is on disk (the WAL is
/// fsynced at commit) and survives `kill -9` (tested) and power loss (by SQLite's contract; not testable here).
/// A commit writes its pages to the log and nothing else: moving them into the database file (a checkpoint)
/// happens on ``WALCheckpointer``'s thread, not inside the commit as SQLite's default would have it.
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
    /// Whether the store was opened read-only, because its folder or file is not writable by this process
    /// (see ``ItemStore/init(databaseURL:keyring:)``): reads work, every ``write(_:)`` throws
    /// ``ItemStoreError/readOnly(_:)``.
    public let isReadOnly: Bool
    let keyring: any ItemKeyring
    /// The single writer connection; nil in a read-only store.
    let writer: DatabaseQueue?
    let readers: ReaderPool
    let indexers = IndexerCache()
    let options: Options
    /// The log's size after the writer's commits (the writer's WAL hook).
    let walSize = WALSize()
    /// Checkpoints off the writers' path.
    let checkpointer: WALCheckpointer
    /// Called after each committed write (``observeCommits(_:)``).
    let commitObservers = CommitObservers()

    /// Opens the store at `databaseURL`, creating the file (mode 0600) if needed, and migrates the schema.
    ///
    /// The folder is the caller's (it should be 0700); SQLite creates `-wal` and `-shm` beside the file
    /// with the file's mode. Throws ``ItemStoreError/io(_:)`` when the file cannot be opened or migrated.
    ///
    /// When the folder or the file is not writable by this process (or SQLite finds it read-only), the
    /// store opens read-only (``isReadOnly``): no writer, no migration, nothing created in the folder; a
    /// database whose schema is not the current one is refused, since it cannot be migrated.
    public convenience init(databaseURL: URL, keyring: any ItemKeyring) throws {
        try self.init(databaseURL: databaseURL, keyring: keyring, options: Options())
    }

    /// Opens with explicit connection options (benchmarks and tests compare them).
    init(databaseURL: URL, keyring: any ItemKeyring, options: Options) throws {
        self.databaseURL = databaseURL
        self.keyring = keyring
        self.options = options
        let path = databaseURL.path
        checkpointer = WALCheckpointer(path: path)
        var readOnlyMode = try Self.readOnlyMode(for: databaseURL, force: options.readOnly)
        var writer: DatabaseQueue?
        if readOnlyMode == nil {
            do {
                try Self.createFileIfMissing(path)
                writer = try Self.openWriter(databaseURL, options: options, walSize: walSize)
            } catch let error as DatabaseError where [.SQLITE_READONLY, .SQLITE_CANTOPEN].contains(error.resultCode) {
                // The permissions allowed writing, yet SQLite found the file read-only (an immutable file,
                // a read-only mount seen late): read it as a read-only keychain.
                readOnlyMode = try Self.readOnlyMode(for: databaseURL, force: true)
            } catch let error as DatabaseError {
                throw Self.storeError(error)
            }
        }
        self.writer = writer
        isReadOnly = writer == nil
        readers = ReaderPool(
            path: path, busyTimeout: options.busyTimeout, maximumIdle: options.maximumReaderCount, mode: readOnlyMode ?? .readWrite)
        if isReadOnly { try Self.checkSchemaIsCurrent(readers, databaseURL: databaseURL) }
    }

    /// Opens the writer connection on an existing file, switches it to WAL and migrates the schema.
    private static func openWriter(_ databaseURL: URL, options: Options, walSize: WALSize) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.label = "Coffer.ItemStore"
        configuration.busyMode = .timeout(options.busyTimeout)
        configuration.publicStatementArguments = false  // never put bound values in errors or logs
        configuration.prepareDatabase { db in
            // Do not run SQL functions from schema entries of a (possibly tampered) file; check cell
            // sizes so that a damaged page is reported, not misread; overwrite deleted content with zeros,
            // so that a deleted item's wrapped key and ciphertexts do not linger in free pages of the
            // database file (old WAL frames linger until the WAL is overwritten or truncated).
            try db.execute(sql: "PRAGMA trusted_schema = OFF; PRAGMA cell_size_check = ON; PRAGMA secure_delete = ON")
            ItemStore.keepWriteAheadLogOnClose(db.sqliteConnection)
            // No checkpoint inside a commit: the store runs them (``checkpointIfTheLogGrew(_:)``).
            if let connection = db.sqliteConnection { walSize.watch(connection) }
        }
        let writer = try DatabaseQueue(path: databaseURL.path, configuration: configuration)
        try Self.retryingWhileOthersSetUp {
            try writer.writeWithoutTransaction { db in
                // WAL (persistent in the file once set), with every commit synced: a keychain write must be
                // durable when it returns. Set here rather than through GRDB's `journalMode = .wal`, which
                // also writes to the database at each open when the log file is missing or empty.
                guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                    throw ItemStoreError.io("SQLite cannot use write-ahead logging for \(databaseURL.lastPathComponent)")
                }
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
        }
        try Self.retryingWhileOthersSetUp { try migrate(writer, upTo: options.lastMigration) }
        return writer
    }

    // MARK: - Transactions

    /// Runs `body` with a reader on one of the store's read connections.
    ///
    /// Each selection is one SQL statement and reads one consistent snapshot (SQLite's implicit read
    /// transaction, which ends when the statement is done); two selections in one body may see a write
    /// commit between them. A find runs one selection, so it needs no `BEGIN … COMMIT` round of its own.
    ///
    /// Errors thrown by `body` — including ``ItemKeyring`` errors — come out unchanged; SQLite failures
    /// come out as ``ItemStoreError``.
    @discardableResult
    public func read<T>(_ body: (ItemReader) throws -> T) throws -> T {
        try readers.withConnection { reader in
            try body(ItemReader(ReadAccess(connection: .reader(reader), keys: ItemKeys(keyring: keyring, indexers: indexers))))
        }
    }

    /// Runs `body` in ONE immediate write transaction: it commits (durably) when `body` returns and rolls
    /// back everything when `body` throws.
    ///
    /// Errors thrown by `body` — including ``ItemKeyring`` errors — come out unchanged; SQLite failures
    /// (including a commit that fails, or waiting more than 5 s for another writer) come out as
    /// ``ItemStoreError``.
    /// A read-only store (``isReadOnly``) throws ``ItemStoreError/readOnly(_:)`` before `body` runs.
    @discardableResult
    public func write<T>(_ body: (ItemWriter) throws -> T) throws -> T {
        let writer = try requireWriter()
        return try Self.mappingErrors {
            try writer.writeWithoutTransaction { db in
                let changesBefore = db.totalChangesCount
                let result = try Self.transaction(db, begin: "BEGIN IMMEDIATE") {
                    let keys = ItemKeys(keyring: keyring, indexers: indexers)
                    return try body(ItemWriter(ReadAccess(connection: .writer(db), keys: keys), WriteAccess(db: db, keys: keys)))
                }
                checkpointIfTheLogGrew(db)
                if db.totalChangesCount != changesBefore { commitObservers.notify() }
                return result
            }
        }
    }

    // MARK: - Schema facts

    /// The attribute codes that have a blind-index column in `itemClass`'s table: the codes that
    /// ``ItemSelection`` may filter on and that ``NewItem/indexValues`` may hold. Empty for a class
    /// without a table.
    public static func indexedAttributes(for itemClass: ItemClass) -> Set<String> {
        (try? Schema.table(itemClass))?.codeSet ?? []
    }

    /// Whether the store has a table for `itemClass` (generic and internet passwords, certificates and keys).
    public static func supports(_ itemClass: ItemClass) -> Bool {
        (try? Schema.table(itemClass)) != nil
    }

    // MARK: - Internals

    /// After a commit that took the log past a multiple of ``Options/checkpointPages``: asks for a checkpoint
    /// on the checkpointer's thread, or, once the log holds ``Options/checkpointPagesOnCaller`` pages (no
    /// background checkpoint got to finish), runs a PASSIVE one here. The commit is durable either way; a
    /// failed checkpoint here is left to the next crossing.
    private func checkpointIfTheLogGrew(_ db: Database) {
        guard walSize.crossedMultiple(of: options.checkpointPages) else { return }
        if walSize.pagesAfterLastCommit >= options.checkpointPagesOnCaller {
            _ = try? db.checkpoint(.passive)
        } else {
            checkpointer.request()
        }
    }

    /// The writer connection, or ``ItemStoreError/readOnly(_:)`` for a read-only store.
    func requireWriter() throws(ItemStoreError) -> DatabaseQueue {
        guard let writer else { throw .readOnly(Self.readOnlyReason(databaseURL)) }
        return writer
    }

    /// Runs the migrations that are missing (up to `lastMigration` only, when given).
    private static func migrate(_ writer: DatabaseQueue, upTo lastMigration: String?) throws {
        if let lastMigration { return try Schema.migrator.migrate(writer, upTo: lastMigration) }
        // Checking first, in a read, keeps an up-to-date keychain's open free of writes: the migrator
        // itself always commits a write transaction, which costs an fsync at every process start.
        if try writer.read({ try Schema.migrator.hasCompletedMigrations($0) }) { return }
        try Schema.migrator.migrate(writer)
    }

    /// Runs a step of opening that several openers of a new file may race on, again after a short pause
    /// when SQLite refuses it, for up to about 5 s.
    ///
    /// Switching a new file to WAL needs it to itself (SQLite answers "locked" at once, without waiting);
    /// two openers may both see a migration missing, and the loser's `CREATE TABLE` fails once the winner
    /// commits; GRDB reads the applied migrations outside its migration transaction, so a check can meet
    /// a schema that changed under it. Running the step again finds the work done.
    private static func retryingWhileOthersSetUp(_ step: () throws -> Void) throws {
        var attempt = 0
        while true {
            do {
                return try step()
            } catch let error as DatabaseError where attempt < 100 {
                _ = error
                attempt += 1
                usleep(UInt32(min(attempt, 10)) * 5_000)
            }
        }
    }

    /// Runs `body` between `begin` and `COMMIT`, both cached statements; rolls back when `body` throws.
    ///
    /// GRDB's own `inTransaction` prepares its statements per call, which costs more than the write's SQL.
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

    /// Makes closing a connection leave the write-ahead log in place (committed transactions stay in it,
    /// as durable as in the database file, until a writer's automatic checkpoint moves them).
    ///
    /// By default the last connection to close checkpoints the log and deletes it, which costs two
    /// `fsync`s at every exit of a short-lived process such as the CLI, plus a write at its next start
    /// (GRDB writes to a missing log to recreate it).
    static func keepWriteAheadLogOnClose(_ connection: OpaquePointer?) {
        guard let connection else { return }
        _ = coffer_sqlite_keep_wal_on_close(UnsafeMutableRawPointer(connection))
    }

    /// Maps GRDB's errors to ``ItemStoreError``; leaves every other error unchanged.
    static func mappingErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw Self.storeError(error)
        }
    }

    /// The ``ItemStoreError`` of an SQLite error: a UNIQUE violation (extended code 2067) is a duplicate;
    /// `SQLITE_READONLY` (the file or its folder became read-only after the store opened) is read-only;
    /// anything else is I/O with SQLite's code and text (which hold no bound values).
    static func storeError(_ error: DatabaseError) -> ItemStoreError {
        if error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE { return .duplicateItem }
        if error.resultCode == .SQLITE_READONLY { return .readOnly("SQLite found the item database read-only (\(error.extendedResultCode.rawValue))") }
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
