import Foundation

extension ItemStore {
    /// How the store connects; the defaults are what production uses.
    struct Options: Sendable {
        /// How long a connection waits for another's lock before failing with ``ItemStoreError/io(_:)``.
        var busyTimeout: TimeInterval = 5
        /// How many reader connections stay open between reads.
        var maximumReaderCount = 4
        /// Open read-only even when the folder and the file are writable (as when SQLite finds the file
        /// read-only): what a read-only keychain does, testable without a read-only file system.
        var readOnly = false
        /// The last migration to run (tests build the database an older Coffer left); nil runs them all.
        var lastMigration: String?
        /// A commit that takes the write-ahead log past a multiple of this many pages asks for a checkpoint on
        /// ``WALCheckpointer``'s thread (SQLite's own default checkpoints at 1,000, inside the commit).
        var checkpointPages = 1_000
        /// From this many pages on, the commit that crosses a multiple of ``checkpointPages`` checkpoints
        /// itself: the log stays bounded where no background checkpoint gets to finish (short-lived processes,
        /// such as the CLI's, exit first).
        var checkpointPagesOnCaller = 4_000
    }
}
