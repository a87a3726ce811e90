import Foundation
import GRDB
import KeychainModel

/// The writes of one ``ItemStore/write(_:)`` transaction, through GRDB on the writer connection: inserts,
/// replacements and deletes of sealed rows. ``ItemWriter`` offers them; its reads go through ``ReadAccess``.
struct WriteAccess {
    let db: Database
    let keys: ItemKeys

    /// See ``ItemWriter/insert(_:)``.
    func insert(_ item: NewItem) throws -> StoredItem {
        let table = try validate(item)
        if let persistentRef = item.persistentRef {
            let taken = try ItemStore.mappingErrors {
                try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT 1 FROM \(table.table) WHERE pref = ?"),
                    arguments: [persistentRef]) != nil
            }
            if taken { throw ItemStoreError.duplicatePersistentRef }
        }
        let persistentRef = item.persistentRef ?? ItemCrypto.randomPersistentRef()
        let sealed = try RowSealer.seal(item, persistentRef: persistentRef, table: table, keys: keys)
        var arguments: [(any DatabaseValueConvertible)?] = [
            persistentRef, item.protection.keyclassNumber, sealed.uniqueDigest, sealed.wrappedKey,
            sealed.attributes, sealed.secret, sealed.rowTag,
        ]
        arguments += sealed.indexes.map { $0 }
        let rowID = try ItemStore.mappingErrors {
            try db.cachedStatement(sql: table.insertSQL).execute(arguments: StatementArguments(arguments))
            return db.lastInsertedRowID
        }
        return StoredItem(
            rowID: rowID, itemClass: item.itemClass, protection: item.protection, persistentRef: persistentRef,
            sealed: sealed, tagIsValid: true)
    }

    /// See ``ItemWriter/replace(rowID:with:)``.
    func replace(rowID: Int64, with item: NewItem) throws -> StoredItem {
        let table = try validate(item)
        let existing = try ItemStore.mappingErrors {
            try Data.fetchOne(
                db.cachedStatement(sql: "SELECT pref FROM \(table.table) WHERE rowid = ?"), arguments: [rowID])
        }
        guard let persistentRef = existing else { throw ItemStoreError.notFound(rowID: rowID) }
        guard persistentRef.count == ItemCrypto.persistentRefLength else { throw ItemStoreError.corrupt(rowID: rowID) }
        if let wanted = item.persistentRef, wanted != persistentRef {
            throw ItemStoreError.invalidArgument("replace keeps the row's persistent reference")
        }
        let sealed = try RowSealer.seal(item, persistentRef: persistentRef, table: table, keys: keys)
        var arguments: [(any DatabaseValueConvertible)?] = [
            item.protection.keyclassNumber, sealed.uniqueDigest, sealed.wrappedKey, sealed.attributes, sealed.secret,
            sealed.rowTag,
        ]
        arguments += sealed.indexes.map { $0 }
        arguments.append(rowID)
        try ItemStore.mappingErrors { try db.cachedStatement(sql: table.updateSQL).execute(arguments: StatementArguments(arguments)) }
        return StoredItem(
            rowID: rowID, itemClass: item.itemClass, protection: item.protection, persistentRef: persistentRef,
            sealed: sealed, tagIsValid: true)
    }

    /// See ``ItemWriter/delete(rowIDs:in:)``.
    func delete(rowIDs: [Int64], in itemClass: ItemClass) throws -> Int {
        let table = try Schema.table(itemClass)
        return try ItemStore.mappingErrors {
            let statement = try db.cachedStatement(sql: "DELETE FROM \(table.table) WHERE rowid = ?")
            var deleted = 0
            for rowID in Set(rowIDs) {
                try statement.execute(arguments: [rowID])
                deleted += db.changesCount
            }
            return deleted
        }
    }

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
}
