import GRDBSQLite

/// The size of the write-ahead log after the writer's last commit, as SQLite's WAL hook reports it.
///
/// Watching a connection replaces SQLite's own hook, the one that runs a checkpoint inside the commit that
/// takes the log past `wal_autocheckpoint` pages: after ``watch(_:)`` no commit of that connection checkpoints,
/// and the store decides from ``pagesAfterLastCommit`` when to ask ``WALCheckpointer`` (so the connection must
/// never run `PRAGMA wal_autocheckpoint`, which would put SQLite's hook back).
///
/// Not thread-safe: written by SQLite during a commit and read right after it, both on the writer's thread.
final class WALSize: @unchecked Sendable {
    private let pages: UnsafeMutablePointer<Int32>
    /// ``pagesAfterLastCommit`` when ``crossedMultiple(of:)`` last looked.
    private var pagesSeen = 0

    init() {
        pages = .allocate(capacity: 1)
        pages.initialize(to: 0)
    }

    deinit { pages.deallocate() }

    /// Frames in the log after the watched connection's last commit (0 before its first).
    var pagesAfterLastCommit: Int { Int(pages.pointee) }

    /// Whether the log went past a multiple of `step` pages since the last call (or reached one
    /// after SQLite restarted it from its beginning).
    func crossedMultiple(of step: Int) -> Bool {
        let now = pagesAfterLastCommit
        defer { pagesSeen = now }
        return now / step > (now < pagesSeen ? 0 : pagesSeen / step)
    }

    /// Makes `connection` (which must not outlive this object) report its log's size here after each commit.
    func watch(_ connection: OpaquePointer) {
        _ = sqlite3_wal_hook(
            connection,
            { context, _, _, pages in
                context?.assumingMemoryBound(to: Int32.self).pointee = pages
                return SQLITE_OK
            }, UnsafeMutableRawPointer(pages))
    }
}
