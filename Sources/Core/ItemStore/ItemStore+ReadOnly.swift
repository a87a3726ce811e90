import Foundation
import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// Opening a keychain this process cannot write: read-only readers, no writer, no migration, nothing created.
extension ItemStore {
    /// How readers open a read-only store at `databaseURL`, or nil when the store can be written.
    ///
    /// The store is read-only when its folder or its file is not writable by this process (`faccessat`
    /// with `AT_EACCESS`; a read-only file system counts), or always when `force` is set (SQLite
    /// answered `SQLITE_READONLY` or `SQLITE_CANTOPEN` to the writer). Its readers then open with
    /// `SQLITE_OPEN_READONLY`, and through `immutable=1` when the write-ahead log is empty or absent —
    /// SQLite cannot otherwise read a WAL database without creating its `-shm` file. A log that holds
    /// changes needs its `-shm` (existing, or creatable in a writable folder): without one, an immutable
    /// open would silently miss those changes, so the store refuses to open instead.
    static func readOnlyMode(for databaseURL: URL, force: Bool) throws(ItemStoreError) -> ReaderConnection.OpenMode? {
        let path = databaseURL.path
        let folderPath = databaseURL.deletingLastPathComponent().path
        let folderWritable = KeychainFolder.isWritable(folderPath)
        guard force || !folderWritable || !KeychainFolder.isWritable(path) else { return nil }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            throw .readOnly("\(readOnlyReason(databaseURL)); it holds no item database, and none can be created")
        }
        guard lstat(path + "-wal", &status) == 0, status.st_size > 0 else { return .immutable }
        if folderWritable || access(path + "-shm", F_OK) == 0 { return .readOnly }
        throw .io(
            "the write-ahead log \(databaseURL.lastPathComponent)-wal holds changes that SQLite can read only with its -shm file, "
                + "which the read-only folder \(folderPath) cannot hold; make the folder writable once to read them")
    }

    /// Why a write to the store at `databaseURL` is refused: its folder (or file) is read-only.
    static func readOnlyReason(_ databaseURL: URL) -> String {
        let folder = databaseURL.deletingLastPathComponent().path
        return KeychainFolder.isWritable(folder)
            ? "the item database \(databaseURL.path) is read-only for this process"
            : "the keychain folder \(folder) is read-only for this process"
    }

    /// Refuses a read-only database whose schema is not the current one: it cannot be migrated here.
    static func checkSchemaIsCurrent(_ readers: ReaderPool, databaseURL: URL) throws(ItemStoreError) {
        let applied: Set<String>
        do {
            applied = try readers.withConnection { reader throws(ItemStoreError) -> Set<String> in
                let statement = RawStatement(handle: try reader.statement("SELECT identifier FROM grdb_migrations"))
                defer { statement.finish() }
                var identifiers: Set<String> = []
                while try statement.step({ reader.error($0) }) {
                    if let identifier = statement.text(0) { identifiers.insert(identifier) }
                }
                return identifiers
            }
        } catch let error as ItemStoreError {
            throw error
        } catch {
            throw .io("cannot read the schema version: \(error)")
        }
        let current = Set(Schema.migrator.migrations)
        guard applied != current else { return }
        if applied.isSubset(of: current) {
            throw .readOnly(
                "\(readOnlyReason(databaseURL)), and its item database has an older schema that must be migrated first; open it once where it can be written")
        }
        throw .io("the item database has a schema newer than this version of Coffer knows (\(applied.subtracting(current).sorted().joined(separator: ", ")))")
    }
}
