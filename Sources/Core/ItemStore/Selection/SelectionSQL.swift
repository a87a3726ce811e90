import Foundation

/// The SQL of an ``ItemSelection``: what follows ``TableSchema/selectPrefix``, and its bindings.
enum SelectionSQL {
    /// The selection's `WHERE`, `ORDER BY` and `LIMIT`, and its bindings; `nil` when it cannot match anything.
    /// `indexer` is the class's, if the caller has it already; else it is made from `keys` once a filter needs it.
    ///
    /// Filters are emitted in a fixed order (sorted codes), so that equal shapes share one prepared
    /// statement, which readers find by this short clause rather than by the whole SQL text.
    static func clause(
        for selection: ItemSelection, table: TableSchema, indexer: ItemCrypto.Indexer? = nil, keys: ItemKeys
    ) throws -> (clause: String, bindings: [SQLBinding])? {
        // Validate every code before touching the keyring or the database.
        for code in selection.equal.keys where table.position[code] == nil {
            throw ItemStoreError.unknownAttribute(code: code, itemClass: selection.itemClass)
        }
        for code in selection.anyOf.keys where table.position[code] == nil {
            throw ItemStoreError.unknownAttribute(code: code, itemClass: selection.itemClass)
        }
        if let limit = selection.limit, limit < 0 { throw ItemStoreError.invalidArgument("negative limit") }
        if selection.limit == 0 || selection.anyOf.values.contains(where: { $0.isEmpty }) { return nil }

        var sql = ""
        var bindings: [SQLBinding] = []
        var joiner = " WHERE "
        func clause(_ text: String) {
            sql += joiner
            sql += text
            joiner = " AND "
        }
        if !selection.equal.isEmpty || !selection.anyOf.isEmpty || selection.uniqueKey != nil {
            let indexer = try indexer ?? keys.indexer(for: selection.itemClass)
            for code in selection.equal.keys.sorted() {
                clause(table.columnEquals[code]!)
                bindings.append(.blob(indexer.index(code: code, value: selection.equal[code]!)))
            }
            for code in selection.anyOf.keys.sorted() {
                let values = selection.anyOf[code]!
                if values.count == 1 {
                    clause(table.columnEquals[code]!)
                } else {
                    clause(TableSchema.column(code) + " IN (" + Array(repeating: "?", count: values.count).joined(separator: ", ") + ")")
                }
                for value in values { bindings.append(.blob(indexer.index(code: code, value: value))) }
            }
            if let uniqueKey = selection.uniqueKey {
                clause("ukey = ?")
                bindings.append(.blob(indexer.uniqueDigest(uniqueKey)))
            }
        }
        if let persistentRef = selection.persistentRef {
            clause("pref = ?")
            bindings.append(.blob(persistentRef))
        }
        if let rowID = selection.rowID {
            clause("rowid = ?")
            bindings.append(.integer(rowID))
        }
        sql += " ORDER BY rowid"
        if let limit = selection.limit {
            sql += " LIMIT ?"
            bindings.append(.integer(Int64(limit)))
        }
        return (sql, bindings)
    }
}
