import GRDB
import KeychainModel

/// The database schema: its tables per class and the migrations that build it.
///
/// Versioning: each migration is frozen once shipped. v1 creates `genp` and `inet`; v2 makes their
/// attribute indexes partial (``TableSchema/partialIndexSQL``); v3 adds `keys` (``keyV3``); v4 adds `cert`
/// (``certificateV4``); v5 indexes the label of every class (``labelIndexesV5``), so a find by label costs what a find
/// by account does; v6 adds the sync ledger's tables (``syncLedgerV6``). Later versions add tables (a ``TableSchema``, a case in ``table(_:)`` and a migration
/// calling ``addTables(_:to:)``) or columns (`ALTER TABLE … ADD COLUMN i_<code> BLOB`); a new column is NULL in old
/// rows, which the row tag tolerates because it covers only non-NULL index columns.
enum Schema {
    /// Attributes common to generic and internet passwords that queries may filter on (reference §1.3).
    private static let passwordCommon = [
        "acct", "agrp", "sync", "pdmn", "labl", "desc", "icmt", "crtr", "type", "scrp", "alis", "invi", "nega",
        "cusi", "prot", "cdat", "mdat", "vwht", "tkid", "musr", "ggrp", "sha1",
    ]

    /// Indexes both password tables share, with the estimated rows per value: an account or a digest
    /// names about one item; a type, view hint, token or sharing group is shared by most.
    private static let passwordIndexes = [
        "acct": 2, "sha1": 1, "agrp": 200, "type": 1000, "vwht": 5000, "tkid": 5000, "ggrp": 5000,
    ]

    /// `genp` as created by v1. Indexed as Apple indexes it (§5.5: type, acct, svce, sha1, vwht, tkid, ggrp;
    /// persistref is the UNIQUE `pref`), plus `agrp`, which every query of the engine filters on.
    static let genericPasswordV1 = TableSchema(
        itemClass: .genericPassword,
        codes: passwordCommon + ["svce", "gena"],
        indexed: passwordIndexes.merging(["svce": 10]) { $1 }
    )

    /// `inet` as created by v1 (indexes per §5.5, plus `agrp`).
    static let internetPasswordV1 = TableSchema(
        itemClass: .internetPassword,
        codes: passwordCommon + ["sdmn", "srvr", "ptcl", "atyp", "port", "path"],
        indexed: passwordIndexes.merging([
            "alis": 2, "sdmn": 100, "srvr": 10, "ptcl": 2000, "atyp": 2000, "port": 2000, "path": 50,
        ]) { $1 }
    )

    /// The current table of a class, or ``ItemStoreError/unsupportedClass(_:)`` for a class without one.
    static func table(_ itemClass: ItemClass) throws(ItemStoreError) -> TableSchema {
        switch itemClass {
        case .genericPassword: genericPasswordV1
        case .internetPassword: internetPasswordV1
        case .key: keyV3
        case .certificate: certificateV4
        case .identity: throw .unsupportedClass(itemClass)
        }
    }

    /// The migrations, from v1.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            let tables = [genericPasswordV1, internetPasswordV1]
            for table in tables { try db.execute(sql: table.createSQL) }
            // Creates sqlite_stat1 (empty), then fills it with the fixed estimates.
            try db.execute(sql: "ANALYZE sqlite_master")
            for table in tables {
                for (index, stat) in table.plannerStatistics {
                    try db.execute(
                        sql: "INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)",
                        arguments: [table.table, index, stat])
                }
            }
            // Analyzing the (stat-less) schema table again makes this connection load the rows just written;
            // other connections load them with the new schema.
            try db.execute(sql: "ANALYZE sqlite_master")
        }
        migrator.registerMigration("v2") { db in
            let tables = [genericPasswordV1, internetPasswordV1]
            for table in tables { try db.execute(sql: table.partialIndexSQL) }
            // The recreated indexes get the same fixed estimates (DROP INDEX may have dropped their rows).
            for table in tables {
                for (index, stat) in table.plannerStatistics {
                    try db.execute(sql: "DELETE FROM sqlite_stat1 WHERE tbl = ? AND idx = ?", arguments: [table.table, index])
                    try db.execute(
                        sql: "INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)",
                        arguments: [table.table, index, stat])
                }
            }
            try db.execute(sql: "ANALYZE sqlite_master")
        }
        migrator.registerMigration("v3") { db in try addTables([keyV3], to: db) }
        migrator.registerMigration("v4") { db in try addTables([certificateV4], to: db) }
        migrator.registerMigration("v5") { db in
            try addIndexes(labelIndexesV5, to: [genericPasswordV1, internetPasswordV1, keyV3, certificateV4], db: db)
        }
        migrator.registerMigration("v6") { db in
            for statement in syncLedgerV6 { try db.execute(sql: statement) }
        }
        return migrator
    }

    /// The indexes v5 adds to tables that already have the columns, with their rows per value: a label names about
    /// two items.
    static let labelIndexesV5 = ["labl": 2]

    /// The indexes a later version adds to existing columns: partial, with their planner estimates.
    private static func addIndexes(_ estimates: [String: Int], to tables: [TableSchema], db: Database) throws {
        for table in tables {
            for (code, rows) in estimates.sorted(by: { $0.key < $1.key }) where table.codes.contains(code) {
                let column = TableSchema.column(code)
                try db.execute(sql: "CREATE INDEX \(table.indexName(code)) ON \(table.table)(\(column)) WHERE \(column) IS NOT NULL")
                try db.execute(
                    sql: "INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)",
                    arguments: [table.table, table.indexName(code), "10000 \(rows)"])
            }
        }
        try db.execute(sql: "ANALYZE sqlite_master")
    }

    /// Creates tables that a later version adds, with partial indexes and their planner estimates.
    private static func addTables(_ tables: [TableSchema], to db: Database) throws {
        for table in tables {
            try db.execute(sql: table.createWithPartialIndexesSQL)
            for (index, stat) in table.plannerStatistics {
                try db.execute(
                    sql: "INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)", arguments: [table.table, index, stat])
            }
        }
        // Makes this connection load the new estimates, as in v1.
        try db.execute(sql: "ANALYZE sqlite_master")
    }
}
