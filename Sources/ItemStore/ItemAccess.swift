import Crypto
import Foundation
import GRDB
import GRDBSQLite
import KeychainModel

/// The work behind ``ItemReader`` and ``ItemWriter``: SQL on one connection inside the current
/// transaction, and the item crypto.
///
/// Selects run through SQLite's C API on statements prepared once per connection (the read path is the
/// keychain's hot path); inserts, updates and deletes run through GRDB on the writer connection.
struct ItemAccess {
    /// The connection the transaction runs on.
    enum Connection {
        /// GRDB's writer connection, inside ``ItemStore/write(_:)``.
        case writer(Database)
        /// A reader, inside ``ItemStore/read(_:)``.
        case reader(ReaderConnection)
    }

    let connection: Connection
    let keyring: any ItemKeyring
    let indexers: IndexerCache

    /// The writer connection; only write operations ask for it, and ``ItemWriter`` alone offers them.
    var db: Database {
        guard case .writer(let db) = connection else { preconditionFailure("writes run on the writer connection") }
        return db
    }

    // MARK: Reading

    func select(_ selection: ItemSelection) throws -> [StoredItem] {
        let table = try Schema.table(selection.itemClass)
        let indexer = try indexers.indexer(for: selection.itemClass, indexKey: keyring.indexKey())
        guard let query = try selectClause(selection, table: table, indexer: indexer) else { return [] }
        let statement = try selectStatement(table: table, clause: query.clause)
        statement.bind(query.bindings)
        defer { statement.finish() }
        var items: [StoredItem] = []
        var message = RowTagMessage(capacity: 1024)
        while try statement.step(failure) {
            items.append(decode(statement, table: table, indexer: indexer, message: &message))
        }
        return items
    }

    /// What follows ``TableSchema/selectPrefix`` in a selection's SQL (its `WHERE`, `ORDER BY` and
    /// `LIMIT`), and its bindings; `nil` when it cannot match anything.
    ///
    /// Filters are emitted in a fixed order (sorted codes), so that equal shapes share one prepared
    /// statement, which readers find by this short clause rather than by the whole SQL text.
    func selectClause(
        _ selection: ItemSelection, table: TableSchema, indexer: ItemCrypto.Indexer? = nil
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
            let indexer = try indexer ?? indexers.indexer(for: selection.itemClass, indexKey: keyring.indexKey())
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

    /// SQLite's plan for a selection (`EXPLAIN QUERY PLAN`, the `detail` column of each step).
    func queryPlan(_ selection: ItemSelection) throws -> [String] {
        let table = try Schema.table(selection.itemClass)
        guard let query = try selectClause(selection, table: table) else { return [] }
        let statement = try statement("EXPLAIN QUERY PLAN " + table.selectPrefix + query.clause)
        statement.bind(query.bindings)
        defer { statement.finish() }
        var details: [String] = []
        while try statement.step(failure) { details.append(statement.text(3) ?? "") }
        return details
    }

    func openAttributes(_ item: StoredItem) throws -> Data {
        guard item.tagIsValid else { throw ItemStoreError.corrupt(rowID: item.rowID) }
        guard let version = ItemCrypto.version(of: item.sealed.attributes) else {
            throw ItemStoreError.corrupt(rowID: item.rowID)
        }
        let key = try keyring.metadataKey(for: item.protection)
        let aad = ItemCrypto.aad(
            .attributes, version: version, itemClass: item.itemClass, protection: item.protection,
            persistentRef: item.persistentRef)
        return try ItemCrypto.open(
            item.sealed.attributes, key: key, aad: aad, withPresenceByte: false, rowID: item.rowID) ?? Data()
    }

    func openSecret(_ item: StoredItem) throws -> Data? {
        guard item.tagIsValid else { throw ItemStoreError.corrupt(rowID: item.rowID) }
        guard let version = ItemCrypto.version(of: item.sealed.secret) else {
            throw ItemStoreError.corrupt(rowID: item.rowID)
        }
        let itemKey = try keyring.unwrapItemKey(item.sealed.wrappedKey, protection: item.protection)
        let aad = ItemCrypto.aad(
            .secret, version: version, itemClass: item.itemClass, protection: item.protection,
            persistentRef: item.persistentRef)
        return try ItemCrypto.open(item.sealed.secret, key: itemKey, aad: aad, withPresenceByte: true, rowID: item.rowID)
    }

    func count(of itemClass: ItemClass) throws -> Int {
        let table = try Schema.table(itemClass)
        let statement = try statement("SELECT count(*) FROM \(table.table)")
        statement.bind([])
        defer { statement.finish() }
        guard try statement.step(failure), let count = statement.integer(0) else { return 0 }
        return Int(count)
    }

    // MARK: Writing

    func insert(_ item: NewItem) throws -> StoredItem {
        let table = try validate(item)
        if let persistentRef = item.persistentRef {
            let taken = try sqlite {
                try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT 1 FROM \(table.table) WHERE pref = ?"),
                    arguments: [persistentRef]) != nil
            }
            if taken { throw ItemStoreError.duplicatePersistentRef }
        }
        let persistentRef = item.persistentRef ?? ItemCrypto.randomPersistentRef()
        let sealed = try seal(item, persistentRef: persistentRef, table: table)
        var arguments: [(any DatabaseValueConvertible)?] = [
            persistentRef, item.protection.keyclassNumber, sealed.uniqueDigest, sealed.wrappedKey,
            sealed.attributes, sealed.secret, sealed.rowTag,
        ]
        arguments += sealed.indexes.map { $0 }
        let rowID = try sqlite {
            try db.cachedStatement(sql: table.insertSQL).execute(arguments: StatementArguments(arguments))
            return db.lastInsertedRowID
        }
        return StoredItem(
            rowID: rowID, itemClass: item.itemClass, protection: item.protection, persistentRef: persistentRef,
            sealed: sealed, tagIsValid: true)
    }

    func replace(rowID: Int64, with item: NewItem) throws -> StoredItem {
        let table = try validate(item)
        let existing = try sqlite {
            try Data.fetchOne(
                db.cachedStatement(sql: "SELECT pref FROM \(table.table) WHERE rowid = ?"), arguments: [rowID])
        }
        guard let persistentRef = existing else { throw ItemStoreError.notFound(rowID: rowID) }
        guard persistentRef.count == ItemCrypto.persistentRefLength else { throw ItemStoreError.corrupt(rowID: rowID) }
        if let wanted = item.persistentRef, wanted != persistentRef {
            throw ItemStoreError.invalidArgument("replace keeps the row's persistent reference")
        }
        let sealed = try seal(item, persistentRef: persistentRef, table: table)
        var arguments: [(any DatabaseValueConvertible)?] = [
            item.protection.keyclassNumber, sealed.uniqueDigest, sealed.wrappedKey, sealed.attributes, sealed.secret,
            sealed.rowTag,
        ]
        arguments += sealed.indexes.map { $0 }
        arguments.append(rowID)
        try sqlite { try db.cachedStatement(sql: table.updateSQL).execute(arguments: StatementArguments(arguments)) }
        return StoredItem(
            rowID: rowID, itemClass: item.itemClass, protection: item.protection, persistentRef: persistentRef,
            sealed: sealed, tagIsValid: true)
    }

    func delete(rowIDs: [Int64], in itemClass: ItemClass) throws -> Int {
        let table = try Schema.table(itemClass)
        return try sqlite {
            let statement = try db.cachedStatement(sql: "DELETE FROM \(table.table) WHERE rowid = ?")
            var deleted = 0
            for rowID in Set(rowIDs) {
                try statement.execute(arguments: [rowID])
                deleted += db.changesCount
            }
            return deleted
        }
    }

    // MARK: Helpers

    /// The table of the item, after checking its codes and persistent reference.
    private func validate(_ item: NewItem) throws -> TableSchema {
        let table = try Schema.table(item.itemClass)
        for code in item.indexValues.keys where table.position[code] == nil {
            throw ItemStoreError.unknownAttribute(code: code, itemClass: item.itemClass)
        }
        if let persistentRef = item.persistentRef, persistentRef.count != ItemCrypto.persistentRefLength {
            throw ItemStoreError.invalidArgument("a persistent reference is 16 bytes")
        }
        return table
    }

    /// Seals an item for the row with `persistentRef`. Keyring errors propagate unchanged.
    private func seal(_ item: NewItem, persistentRef: Data, table: TableSchema) throws -> SealedRow {
        let indexer = try indexers.indexer(for: item.itemClass, indexKey: keyring.indexKey())
        var indexes = [Data?](repeating: nil, count: table.codes.count)
        for (code, value) in item.indexValues {
            indexes[table.position[code]!] = indexer.index(code: code, value: value)
        }
        let metadataKey = try keyring.metadataKey(for: item.protection)
        let attributes = try ItemCrypto.seal(
            item.attributes, key: metadataKey,
            aad: ItemCrypto.aad(
                .attributes, version: ItemCrypto.formatVersion, itemClass: item.itemClass,
                protection: item.protection, persistentRef: persistentRef),
            withPresenceByte: false)
        let itemKey = SymmetricKey(size: .bits256)
        let secret = try ItemCrypto.seal(
            item.secret, key: itemKey,
            aad: ItemCrypto.aad(
                .secret, version: ItemCrypto.formatVersion, itemClass: item.itemClass, protection: item.protection,
                persistentRef: persistentRef),
            withPresenceByte: true)
        let wrappedKey = try keyring.wrapItemKey(itemKey, protection: item.protection)
        var sealed = SealedRow(
            uniqueDigest: indexer.uniqueDigest(item.uniqueKey), wrappedKey: wrappedKey, attributes: attributes,
            secret: secret, rowTag: Data(), indexes: indexes)
        sealed.rowTag = indexer.rowTag(
            protection: item.protection, persistentRef: persistentRef, sealed: sealed, codes: table.codes)
        return sealed
    }

    /// A stored item from a row of ``TableSchema/selectPrefix``; malformed plain columns are corrupt.
    /// The row tag is checked here, once, with the selection's indexer; `message` is scratch room for it,
    /// reused from row to row.
    ///
    /// The item keeps what opening it needs (its identity, wrapped key and sealed parts); the uniqueness
    /// digest and index columns go into the tag's message straight from SQLite's memory.
    ///
    /// A row whose plain columns are malformed (a wrong type, a persistent reference of the wrong length,
    /// an unknown protection class: edits of the file that bypass its CHECK constraints) comes back as a
    /// row that fails authentication, with placeholders for what could not be read, so the caller skips
    /// it as it skips any corrupt row instead of the whole selection failing.
    private func decode(
        _ row: RawStatement, table: TableSchema, indexer: ItemCrypto.Indexer, message: inout RowTagMessage
    ) -> StoredItem {
        let rowID = row.integer(0) ?? 0
        let protection = row.integer(2).flatMap { ProtectionClass(keyclassNumber: Int($0)) }
        var wellFormed = protection != nil
        message.start(protection: protection ?? .alwaysThisDeviceOnly)
        func part(_ column: Int32) -> Data {
            guard let data = row.blob(column) else {
                wellFormed = false
                return Data()
            }
            data.withUnsafeBytes { message.appendPart($0) }
            return data
        }
        var persistentRef = part(1)
        if persistentRef.count != ItemCrypto.persistentRefLength {
            wellFormed = false
            persistentRef = Data(count: ItemCrypto.persistentRefLength)
        }
        if !row.withBlob(3, { message.appendPart($0) }) { wellFormed = false }
        let wrappedKey = part(4)
        let attributes = part(5)
        let secret = part(6)
        for (offset, code) in table.lengthPrefixedCodes.enumerated() {
            let column = Int32(8 + offset)
            guard row.type(column) != SQLITE_NULL else { continue }
            if !row.withBlob(column, { message.appendIndex(code: code, value: $0) }) { wellFormed = false }
        }
        var tagIsValid = false
        if wellFormed {
            let tagged = row.withBlob(7) { stored in tagIsValid = indexer.isTag(stored, of: message) }
            tagIsValid = tagIsValid && tagged
        }
        let sealed = SealedRow(
            uniqueDigest: Data(), wrappedKey: wrappedKey, attributes: attributes, secret: secret, rowTag: Data(),
            indexes: [])
        return StoredItem(
            rowID: rowID, itemClass: table.itemClass, protection: protection ?? .alwaysThisDeviceOnly,
            persistentRef: persistentRef, sealed: sealed, tagIsValid: tagIsValid)
    }

    /// The prepared statement selecting rows of `table` with `clause` (from ``selectClause(_:table:indexer:)``).
    private func selectStatement(table: TableSchema, clause: String) throws -> RawStatement {
        switch connection {
        case .writer: try statement(table.selectPrefix + clause)
        case .reader(let reader):
            RawStatement(handle: try reader.statement(key: table.table + clause) { table.selectPrefix + clause })
        }
    }

    /// The prepared statement for `sql` on this transaction's connection.
    private func statement(_ sql: String) throws -> RawStatement {
        switch connection {
        case .writer(let db): RawStatement(handle: try sqlite { try db.cachedStatement(sql: sql).sqliteStatement })
        case .reader(let reader): RawStatement(handle: try reader.statement(sql))
        }
    }

    /// The error of a failed step on this transaction's connection.
    private func failure(_ code: Int32) -> ItemStoreError {
        switch connection {
        case .writer(let db): .io("SQLite error \(code): \(db.sqliteConnection.map { String(cString: sqlite3_errmsg($0)) } ?? "")")
        case .reader(let reader): reader.error(code)
        }
    }

    /// Runs SQLite work, mapping GRDB errors to ``ItemStoreError``.
    private func sqlite<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw ItemStore.storeError(error)
        }
    }
}
