import Foundation
import KeychainModel

/// The reads of one ``ItemStore/read(_:)`` or ``ItemStore/write(_:)`` body, on its connection: selections,
/// opening sealed parts, counting. ``ItemReader`` and ``ItemWriter`` offer them.
///
/// Selects run through SQLite's C API, on statements prepared once per reader connection (the read path is
/// the keychain's hot path) or on GRDB's cached statements inside a write.
struct ReadAccess {
    let connection: TransactionConnection
    let keys: ItemKeys

    /// See ``ItemReading/select(_:)``.
    func select(_ selection: ItemSelection) throws -> [StoredItem] {
        var items: [StoredItem] = []
        try forEachRow(selection) { items.append($0) }
        return items
    }

    /// See ``ItemReading/forEachRow(_:_:)``.
    func forEachRow(_ selection: ItemSelection, _ body: (StoredItem) throws -> Void) throws {
        let table = try Schema.table(selection.itemClass)
        let indexer = try keys.indexer(for: selection.itemClass)
        guard let query = try SelectionSQL.clause(for: selection, table: table, indexer: indexer, keys: keys) else { return }
        let statement = try connection.selectStatement(table: table, clause: query.clause)
        statement.bind(query.bindings)
        defer { statement.finish() }
        var message = RowTagMessage(capacity: 1024)
        while try statement.step(connection.failure) {
            try body(RowDecoder.item(from: statement, table: table, indexer: indexer, message: &message))
        }
    }

    /// SQLite's plan for a selection (`EXPLAIN QUERY PLAN`, the `detail` column of each step).
    func queryPlan(_ selection: ItemSelection) throws -> [String] {
        let table = try Schema.table(selection.itemClass)
        guard let query = try SelectionSQL.clause(for: selection, table: table, keys: keys) else { return [] }
        let statement = try connection.statement("EXPLAIN QUERY PLAN " + table.selectPrefix + query.clause)
        statement.bind(query.bindings)
        defer { statement.finish() }
        var details: [String] = []
        while try statement.step(connection.failure) { details.append(statement.text(3) ?? "") }
        return details
    }

    /// See ``ItemReading/openAttributes(_:)``.
    func openAttributes(_ item: StoredItem) throws -> Data {
        try RowSealer.openAttributes(item, keyring: keys.keyring)
    }

    /// See ``ItemReading/openSecret(_:)``.
    func openSecret(_ item: StoredItem) throws -> Data? {
        try RowSealer.openSecret(item, keyring: keys.keyring)
    }

    /// See ``ItemReading/count(of:)``.
    func count(of itemClass: ItemClass) throws -> Int {
        let table = try Schema.table(itemClass)
        let statement = try connection.statement("SELECT count(*) FROM \(table.table)")
        statement.bind([])
        defer { statement.finish() }
        guard try statement.step(connection.failure), let count = statement.integer(0) else { return 0 }
        return Int(count)
    }

    /// Whether the sync ledger records writes (its triggers exist).
    func isTrackingChanges() throws -> Bool {
        let statement = try connection.statement("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sync_track_%'")
        statement.bind([])
        defer { statement.finish() }
        guard try statement.step(connection.failure), let count = statement.integer(0) else { return false }
        return count > 0
    }
}
