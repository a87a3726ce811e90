import GRDB

extension ItemStore {
    /// The bytes of the database's pages in use: all its pages less the free ones (a delete leaves pages
    /// free, which later writes reuse before the file grows), as the writer connection sees them, so what
    /// the write-ahead log holds counts. Waits for a write in progress. A read-only store asks a reader.
    public func bytesInUse() throws -> Int64 {
        guard let writer else {
            return try readers.withConnection { reader in
                try pagesInUse { pragma in
                    let statement = RawStatement(handle: try reader.statement("PRAGMA \(pragma)"))
                    defer { statement.finish() }
                    return try statement.step({ reader.error($0) }) ? statement.integer(0) ?? 0 : 0
                }
            }
        }
        return try writer.read { db in
            try pagesInUse { pragma in try Int64.fetchOne(db, sql: "PRAGMA \(pragma)") ?? 0 }
        }
    }

    /// `(page_count − freelist_count) × page_size`, each pragma read through `value`.
    private func pagesInUse(_ value: (String) throws -> Int64) throws -> Int64 {
        let pages = try value("page_count")
        let free = try value("freelist_count")
        let size = try value("page_size")
        return (pages - free) * size
    }
}
