/// The tables Coffer keeps in the sync server's database, in the schema `coffer_sync`, and their migrations.
///
/// What the server holds is ciphertext and the bookkeeping around it: zones (one per account and access group)
/// with their change counters, records (random ids, versions, change numbers, sealed bytes, a deleted flag), the
/// zone keys' shares for each device, the account's device log, and each device's cursor. Every row names its
/// account, the PostgreSQL role that wrote it (`DEFAULT current_user`); row-level security lets a role see and
/// write its own rows only, and the group role `coffer_sync_account` holds the only privileges account roles have.
/// The tables' owner (the role that prepared the schema) is not bound by the policies; account roles never own
/// anything.
///
/// Change numbers come from the zone's counter, updated in the writing transaction (the row lock orders writers),
/// never from a sequence, whose values can commit out of order and make a reader skip a row.
///
/// Versioning: each migration is frozen once shipped; ``migrations`` lists them in order from version 1.
enum ServerSchema {
    /// The schema's name.
    static let name = "coffer_sync"
    /// The group role every account role belongs to.
    static let accountGroup = "coffer_sync_account"
    /// The version this Coffer builds and reads.
    static var currentVersion: Int { migrations.count }
    /// The key of the advisory lock that serialises preparing and migrating the schema.
    static let migrationLock: Int64 = 0x436F_6666_6572_5331  // "CofferS1"

    /// The statements of each version, in order.
    static let migrations: [[String]] = [version1, version2, version3]

    /// The tables where every row belongs to an account, which row-level security keeps apart.
    static let accountTables = version1Tables + ["pairings"]
    private static let version1Tables = ["accounts", "zones", "records", "key_shares", "device_log", "cursors"]

    private static let version1: [String] =
        [
            "CREATE SCHEMA coffer_sync",
            "CREATE TABLE coffer_sync.schema_version (version integer NOT NULL)",
            "INSERT INTO coffer_sync.schema_version (version) VALUES (0)",
            """
            DO $$ BEGIN
                IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'coffer_sync_account') THEN
                    CREATE ROLE coffer_sync_account NOLOGIN;
                END IF;
            END $$
            """,
            """
            CREATE TABLE coffer_sync.accounts (
                account name PRIMARY KEY DEFAULT current_user,
                created timestamptz NOT NULL DEFAULT now()
            )
            """,
            """
            CREATE TABLE coffer_sync.zones (
                account name NOT NULL DEFAULT current_user REFERENCES coffer_sync.accounts ON DELETE CASCADE,
                zone uuid NOT NULL,
                change_counter bigint NOT NULL DEFAULT 0 CHECK (change_counter >= 0),
                PRIMARY KEY (account, zone)
            )
            """,
            """
            CREATE TABLE coffer_sync.records (
                account name NOT NULL DEFAULT current_user,
                zone uuid NOT NULL,
                record uuid NOT NULL,
                version bigint NOT NULL CHECK (version > 0),
                change bigint NOT NULL CHECK (change > 0),
                sealed bytea NOT NULL,
                deleted boolean NOT NULL DEFAULT false,
                PRIMARY KEY (account, zone, record),
                FOREIGN KEY (account, zone) REFERENCES coffer_sync.zones ON DELETE CASCADE
            )
            """,
            "CREATE UNIQUE INDEX records_by_change ON coffer_sync.records (account, zone, change)",
            """
            CREATE TABLE coffer_sync.key_shares (
                account name NOT NULL DEFAULT current_user,
                zone uuid NOT NULL,
                key_version bigint NOT NULL CHECK (key_version > 0),
                device uuid NOT NULL,
                share bytea NOT NULL,
                PRIMARY KEY (account, zone, key_version, device),
                FOREIGN KEY (account, zone) REFERENCES coffer_sync.zones ON DELETE CASCADE
            )
            """,
            """
            CREATE TABLE coffer_sync.device_log (
                account name NOT NULL DEFAULT current_user REFERENCES coffer_sync.accounts ON DELETE CASCADE,
                position bigint NOT NULL CHECK (position > 0),
                entry bytea NOT NULL,
                PRIMARY KEY (account, position)
            )
            """,
            """
            CREATE TABLE coffer_sync.cursors (
                account name NOT NULL DEFAULT current_user,
                device uuid NOT NULL,
                zone uuid NOT NULL,
                change bigint NOT NULL CHECK (change >= 0),
                PRIMARY KEY (account, device, zone),
                FOREIGN KEY (account, zone) REFERENCES coffer_sync.zones ON DELETE CASCADE
            )
            """,
            "GRANT USAGE ON SCHEMA coffer_sync TO coffer_sync_account",
            "GRANT SELECT ON coffer_sync.schema_version TO coffer_sync_account",
            "GRANT SELECT, INSERT ON coffer_sync.accounts TO coffer_sync_account",
            "GRANT SELECT, INSERT, UPDATE ON coffer_sync.zones TO coffer_sync_account",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON coffer_sync.records, coffer_sync.key_shares, coffer_sync.cursors TO coffer_sync_account",
            "GRANT SELECT, INSERT ON coffer_sync.device_log TO coffer_sync_account",
        ] + version1Tables.flatMap(rowSecurity)

    /// Version 2: pairings, where a joining device leaves its identity under an id derived from the pairing code, and
    /// the approving device answers.
    private static let version2: [String] =
        [
            """
            CREATE TABLE coffer_sync.pairings (
                account name NOT NULL DEFAULT current_user REFERENCES coffer_sync.accounts ON DELETE CASCADE,
                pairing uuid NOT NULL,
                request bytea NOT NULL,
                response bytea,
                created timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (account, pairing)
            )
            """,
            "GRANT SELECT, INSERT, UPDATE, DELETE ON coffer_sync.pairings TO coffer_sync_account",
        ] + rowSecurity("pairings")

    /// Version 3: the account column becomes `text` (a role's name is 28 characters; PostgreSQL's `name` takes 64 bytes
    /// in every row and in every index that starts with it, which made the server's storage per record more than twice
    /// the sealed record). Policies and foreign keys name the column, so they are dropped and made again.
    private static let version3: [String] = {
        let foreignKeys: [(table: String, constraint: String, definition: String)] = [
            ("zones", "zones_account_fkey", "FOREIGN KEY (account) REFERENCES coffer_sync.accounts ON DELETE CASCADE"),
            ("device_log", "device_log_account_fkey", "FOREIGN KEY (account) REFERENCES coffer_sync.accounts ON DELETE CASCADE"),
            ("pairings", "pairings_account_fkey", "FOREIGN KEY (account) REFERENCES coffer_sync.accounts ON DELETE CASCADE"),
            ("records", "records_account_zone_fkey", "FOREIGN KEY (account, zone) REFERENCES coffer_sync.zones ON DELETE CASCADE"),
            ("key_shares", "key_shares_account_zone_fkey", "FOREIGN KEY (account, zone) REFERENCES coffer_sync.zones ON DELETE CASCADE"),
            ("cursors", "cursors_account_zone_fkey", "FOREIGN KEY (account, zone) REFERENCES coffer_sync.zones ON DELETE CASCADE"),
        ]
        return accountTables.map { "DROP POLICY own_account ON coffer_sync.\($0)" }
            + foreignKeys.map { "ALTER TABLE coffer_sync.\($0.table) DROP CONSTRAINT \($0.constraint)" }
            + accountTables.map {
                "ALTER TABLE coffer_sync.\($0) ALTER COLUMN account TYPE text, ALTER COLUMN account SET DEFAULT current_user"
            }
            + foreignKeys.map { "ALTER TABLE coffer_sync.\($0.table) ADD CONSTRAINT \($0.constraint) \($0.definition)" }
            + accountTables.map(ownAccountPolicy)
    }()

    /// Row-level security on one account table: an account role reads and writes the rows of its own account only.
    private static func rowSecurity(_ table: String) -> [String] {
        [
            "ALTER TABLE coffer_sync.\(table) ENABLE ROW LEVEL SECURITY",
            ownAccountPolicy(table),
        ]
    }

    /// The policy that confines an account role to its own rows of `table`.
    private static func ownAccountPolicy(_ table: String) -> String {
        """
        CREATE POLICY own_account ON coffer_sync.\(table) TO coffer_sync_account
            USING (account = current_user) WITH CHECK (account = current_user)
        """
    }
}
