import GRDB

extension ItemStore {
    /// The bytes of the database's pages in use: all its pages less the free ones (a delete leaves pages
    /// free, which later writes reuse before the file grows), as the writer connection sees them, so what
    /// the write-ahead log holds counts. Waits for a write in progress.
    public func bytesInUse() throws -> Int64 {
        try writer.read { db in
            let pages = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let free = try Int64.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
            let size = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return (pages - free) * size
        }
    }
}
