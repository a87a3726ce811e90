import Crypto
import Foundation
import GRDB
import KeychainModel

/// The work behind ``ItemReader`` and ``ItemWriter``: SQL with cached statements on one connection inside
/// the current transaction, and the item crypto.
struct ItemAccess {
    let db: Database
    let keyring: any ItemKeyring

    // MARK: Reading

    func select(_ selection: ItemSelection) throws -> [StoredItem] {
        let table = try Schema.table(selection.itemClass)
        let indexer = ItemCrypto.Indexer(indexKey: try keyring.indexKey(), itemClass: selection.itemClass)
        guard let (sql, arguments) = try selectStatement(selection, table: table, indexer: indexer) else { return [] }
        return try sqlite {
            let statement = try db.cachedStatement(sql: sql)
            let rows = try Row.fetchCursor(statement, arguments: arguments)
            var items: [StoredItem] = []
            while let row = try rows.next() {
                items.append(try decode(row, table: table, indexer: indexer))
            }
            return items
        }
    }

    /// The SQL and arguments of a selection, or `nil` when it cannot match anything.
    ///
    /// Filters are emitted in a fixed order (sorted codes), so that equal shapes share one cached statement.
    func selectStatement(
        _ selection: ItemSelection, table: TableSchema, indexer: ItemCrypto.Indexer? = nil
    ) throws -> (String, StatementArguments)? {
        // Validate every code before touching the keyring or the database.
        for code in selection.equal.keys where table.position[code] == nil {
            throw ItemStoreError.unknownAttribute(code: code, itemClass: selection.itemClass)
        }
        for code in selection.anyOf.keys where table.position[code] == nil {
            throw ItemStoreError.unknownAttribute(code: code, itemClass: selection.itemClass)
        }
        if let limit = selection.limit, limit < 0 { throw ItemStoreError.invalidArgument("negative limit") }
        if selection.limit == 0 || selection.anyOf.values.contains(where: \.isEmpty) { return nil }

        var clauses: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        if !selection.equal.isEmpty || !selection.anyOf.isEmpty || selection.uniqueKey != nil {
            let indexer = try indexer ?? ItemCrypto.Indexer(indexKey: keyring.indexKey(), itemClass: selection.itemClass)
            for (code, value) in selection.equal.sorted(by: { $0.key < $1.key }) {
                clauses.append("\(TableSchema.column(code)) = ?")
                arguments.append(indexer.index(code: code, value: value))
            }
            for (code, values) in selection.anyOf.sorted(by: { $0.key < $1.key }) {
                let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
                clauses.append("\(TableSchema.column(code)) IN (\(marks))")
                arguments += values.map { indexer.index(code: code, value: $0) }
            }
            if let uniqueKey = selection.uniqueKey {
                clauses.append("ukey = ?")
                arguments.append(indexer.uniqueDigest(uniqueKey))
            }
        }
        if let persistentRef = selection.persistentRef {
            clauses.append("pref = ?")
            arguments.append(persistentRef)
        }
        if let rowID = selection.rowID {
            clauses.append("rowid = ?")
            arguments.append(rowID)
        }
        var sql = table.selectPrefix
        if !clauses.isEmpty { sql += " WHERE " + clauses.joined(separator: " AND ") }
        sql += " ORDER BY rowid"
        if let limit = selection.limit {
            sql += " LIMIT ?"
            arguments.append(limit)
        }
        return (sql, StatementArguments(arguments))
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
        return try sqlite {
            try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM \(table.table)")) ?? 0
        }
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
        let indexer = ItemCrypto.Indexer(indexKey: try keyring.indexKey(), itemClass: item.itemClass)
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
    /// The row tag is checked here, once, with the selection's indexer.
    private func decode(_ row: Row, table: TableSchema, indexer: ItemCrypto.Indexer) throws -> StoredItem {
        let rowID: Int64 = row[0]
        func blob(_ index: Int) throws -> Data {
            guard case .blob(let data) = (row[index] as DatabaseValue).storage else {
                throw ItemStoreError.corrupt(rowID: rowID)
            }
            return data
        }
        let persistentRef = try blob(1)
        guard persistentRef.count == ItemCrypto.persistentRefLength,
            case .int64(let keyclass) = (row[2] as DatabaseValue).storage,
            let protection = ProtectionClass(keyclassNumber: Int(keyclass))
        else { throw ItemStoreError.corrupt(rowID: rowID) }
        var indexes: [Data?] = []
        indexes.reserveCapacity(table.codes.count)
        for index in 8..<(8 + table.codes.count) {
            switch (row[index] as DatabaseValue).storage {
            case .null: indexes.append(nil)
            case .blob(let data): indexes.append(data)
            default: throw ItemStoreError.corrupt(rowID: rowID)
            }
        }
        let sealed = SealedRow(
            uniqueDigest: try blob(3), wrappedKey: try blob(4), attributes: try blob(5), secret: try blob(6),
            rowTag: try blob(7), indexes: indexes)
        let tagIsValid = indexes.count == table.codes.count
            && indexer.verify(protection: protection, persistentRef: persistentRef, sealed: sealed, codes: table.codes)
        return StoredItem(
            rowID: rowID, itemClass: table.itemClass, protection: protection, persistentRef: persistentRef,
            sealed: sealed, tagIsValid: tagIsValid)
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
