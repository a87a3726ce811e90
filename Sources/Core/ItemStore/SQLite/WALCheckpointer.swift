import Foundation
import GRDBSQLite
import Synchronization

/// Copies the write-ahead log's committed pages into the database file on a thread of its own, so that no
/// write waits for a checkpoint.
///
/// SQLite's default runs a checkpoint inside the commit that takes the log past 1,000 pages: that caller
/// waits while every page is copied and the database file is synced. The store's writer turns this off
/// (`wal_autocheckpoint = 0`, see ``WALSize``) and, after a commit that leaves the log at
/// ``ItemStore/Options/checkpointPages`` or more, asks this checkpointer instead.
///
/// A PASSIVE checkpoint neither waits for nor blocks readers and writers. One cut short (the process exits
/// meanwhile) leaves the log as valid as before, and the next request starts over; requests that arrive
/// while one runs make it run once more when it ends.
final class WALCheckpointer: Sendable {
    /// What one checkpoint reported: frames in the log, and frames now in the database file.
    struct Run: Sendable, Equatable {
        let logFrames: Int32
        let checkpointedFrames: Int32
    }

    private struct State {
        var running = false
        var requestedAgain = false
        var completedRuns = 0
        var lastRun: Run?
    }

    private let path: String
    private let state = Mutex(State())

    /// A checkpointer of the database file at `path`.
    init(path: String) {
        self.path = path
    }

    /// Starts a checkpoint on a thread of the checkpointer's own, unless one runs already (which then runs
    /// once more). Returns at once.
    func request() {
        let start = state.withLock { state in
            if state.running {
                state.requestedAgain = true
                return false
            }
            state.running = true
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in runUntilCaughtUp() }
        thread.name = "coffer-checkpoint"
        thread.start()
    }

    /// How many checkpoints have ended (tests), and what the last one reported.
    var progress: (completedRuns: Int, lastRun: Run?) {
        state.withLock { ($0.completedRuns, $0.lastRun) }
    }

    private func runUntilCaughtUp() {
        while true {
            let run = Self.checkpoint(path: path)
            let again = state.withLock { state in
                state.completedRuns += 1
                if let run { state.lastRun = run }
                if state.requestedAgain {
                    state.requestedAgain = false
                    return true
                }
                state.running = false
                return false
            }
            if !again { return }
        }
    }

    /// One PASSIVE checkpoint through a connection of its own, or nil when SQLite refused (the file is gone,
    /// or is not a database any more): the writer's fallback (``ItemStore/Options/checkpointPagesOnCaller``)
    /// then keeps the log bounded.
    private static func checkpoint(path: String) -> Run? {
        var handle: OpaquePointer?
        defer { sqlite3_close_v2(handle) }
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW, nil) == SQLITE_OK,
            let handle
        else { return nil }
        // Closing must not checkpoint and delete the log while the store's connections use it.
        ItemStore.keepWriteAheadLogOnClose(handle)
        // A new connection learns that the file is in WAL mode from its header, at its first read; until then
        // a checkpoint reports -1 frames and does nothing.
        guard sqlite3_exec(handle, "PRAGMA trusted_schema = OFF; PRAGMA schema_version", nil, nil, nil) == SQLITE_OK else { return nil }
        var logFrames: Int32 = 0
        var checkpointedFrames: Int32 = 0
        guard sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &logFrames, &checkpointedFrames) == SQLITE_OK else {
            return nil
        }
        return Run(logFrames: logFrames, checkpointedFrames: checkpointedFrames)
    }
}
