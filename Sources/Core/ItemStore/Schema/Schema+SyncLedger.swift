extension Schema {
    /// The sync ledger's tables, as v6 creates them (empty until the keychain joins a sync account):
    ///
    /// - `sync_settings`: the account's settings, one value per name (the device's identity and the account keys
    ///   sealed by the engine, the server, the device log's head).
    /// - `sync_pending`: rows of the item tables written since sync last looked, by persistent reference; filled by
    ///   triggers in the writing transaction (``changeTrackingSQL``), so nothing acknowledged escapes it.
    /// - `sync_records`: the mirror, each record this device wrote or applied: its zone, the local row it stands for
    ///   (none for a tombstone), the server version it has, and its sealed body as the server holds it.
    /// - `sync_incoming`: records pulled from the server and not applied yet (a locked class), sealed as received.
    /// - `sync_cursors`: per zone, the last server change pulled into `sync_incoming`.
    /// - `sync_conflicts`: items a conflict removed, sealed by the engine, kept for people to look at.
    static let syncLedgerV6 = [
        "CREATE TABLE sync_settings (name TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID",
        "CREATE TABLE sync_pending (pref BLOB PRIMARY KEY, class TEXT NOT NULL, seq INTEGER NOT NULL) WITHOUT ROWID",
        "CREATE INDEX sync_pending_seq ON sync_pending(seq)",
        """
        CREATE TABLE sync_records (record BLOB PRIMARY KEY CHECK (length(record) = 16), zone BLOB NOT NULL, \
        pref BLOB UNIQUE, class TEXT NOT NULL, version INTEGER NOT NULL, deleted INTEGER NOT NULL, sealed BLOB) WITHOUT ROWID
        """,
        """
        CREATE TABLE sync_incoming (zone BLOB NOT NULL, record BLOB NOT NULL, version INTEGER NOT NULL, \
        change INTEGER NOT NULL, deleted INTEGER NOT NULL, sealed BLOB NOT NULL, PRIMARY KEY (zone, record)) WITHOUT ROWID
        """,
        "CREATE TABLE sync_cursors (zone BLOB PRIMARY KEY, change INTEGER NOT NULL) WITHOUT ROWID",
        "CREATE TABLE sync_conflicts (id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, sealed BLOB NOT NULL)",
    ]

    /// The triggers that record every write of an item table in `sync_pending`, created when the keychain joins a
    /// sync account (a keychain that never syncs pays nothing for them). Each write moves the row's `seq` past every
    /// other, so a change that lands while sync is pushing an earlier one is not mistaken for it.
    static var changeTrackingSQL: [String] {
        [genericPasswordV1, internetPasswordV1, keyV3, certificateV4].flatMap { table in
            [("insert", "INSERT", "NEW"), ("update", "UPDATE", "NEW"), ("delete", "DELETE", "OLD")].map { name, event, row in
                """
                CREATE TRIGGER IF NOT EXISTS sync_track_\(table.table)_\(name) AFTER \(event) ON \(table.table) BEGIN \
                INSERT OR REPLACE INTO sync_pending (pref, class, seq) \
                VALUES (\(row).pref, '\(table.table)', (SELECT coalesce(max(seq), 0) + 1 FROM sync_pending)); END
                """
            }
        }
    }

    /// The item tables whose rows sync.
    static var syncedTables: [String] { [genericPasswordV1, internetPasswordV1, keyV3, certificateV4].map(\.table) }
}
