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
    }
}
