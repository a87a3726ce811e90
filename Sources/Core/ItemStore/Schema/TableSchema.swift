import KeychainModel

/// One item table: its fixed columns and one blind-index column per filterable attribute.
///
/// Fixed columns:
/// - `rowid INTEGER PRIMARY KEY AUTOINCREMENT` (row ids are never reused, as in Apple's schema)
/// - `pref BLOB NOT NULL UNIQUE`: the persistent reference, 16 raw bytes
/// - `keyclass INTEGER NOT NULL`: the protection class as its AppleKeyStore number (6…12)
/// - `ukey BLOB NOT NULL UNIQUE`: HMAC of the engine's uniqueness bytes
/// - `wkey BLOB NOT NULL`: the wrapped item key
/// - `attrs BLOB NOT NULL`, `secret BLOB NOT NULL`: the sealed attributes and secret
/// - `tag BLOB NOT NULL`: the row tag (HMAC over all of the above and the index columns)
///
/// Then `i_<code> BLOB` per attribute code: HMAC of the canonical bytes, or NULL.
struct TableSchema: Sendable {
    /// The class the table stores.
    let itemClass: ItemClass
    /// Attribute codes with an index column, sorted (the order of ``SealedRow/indexes``).
    let codes: [String]
    /// The same codes as a set, for membership tests on the request path.
    let codeSet: Set<String>
    /// `lp(code)` of each of ``codes``, as the row tag covers it (``RowTagMessage``).
    let lengthPrefixedCodes: [[UInt8]]
    /// Codes whose column has an SQL index (the columns Apple indexes), with the planner's estimate of
    /// how many rows share one value (see ``plannerStatistics``).
    let indexed: [String: Int]
    /// Code → position in ``codes``.
    let position: [String: Int]
    /// Code → `i_<code> = ?`, the clause of an equality filter.
    let columnEquals: [String: String]
    /// `SELECT <every column> FROM <table>`, for ``SelectionSQL`` to extend with filters.
    let selectPrefix: String
    /// `INSERT` of a whole row: pref, keyclass, ukey, wkey, attrs, secret, tag, then the index columns.
    let insertSQL: String
    /// `UPDATE` of a whole row but its pref: keyclass, ukey, wkey, attrs, secret, tag, the index columns,
    /// then the row id.
    let updateSQL: String

    init(itemClass: ItemClass, codes: [String], indexed: [String: Int]) {
        precondition(codes.allSatisfy(Self.isValidCode), "attribute codes are short ASCII identifiers")
        precondition(Set(indexed.keys).isSubset(of: codes), "an SQL index needs a column")
        self.itemClass = itemClass
        self.codes = codes.sorted()
        self.codeSet = Set(codes)
        self.lengthPrefixedCodes = self.codes.map(RowTagMessage.lengthPrefixed)
        self.indexed = indexed
        self.position = Dictionary(uniqueKeysWithValues: self.codes.enumerated().map { ($1, $0) })
        self.columnEquals = Dictionary(uniqueKeysWithValues: self.codes.map { ($0, Self.column($0) + " = ?") })
        let table = itemClass.rawValue
        let indexColumns = self.codes.map(Self.column)
        let selected = ["rowid", "pref", "keyclass", "ukey", "wkey", "attrs", "secret", "tag"] + indexColumns
        self.selectPrefix = "SELECT \(selected.joined(separator: ", ")) FROM \(table)"
        let inserted = ["pref", "keyclass", "ukey", "wkey", "attrs", "secret", "tag"] + indexColumns
        let marks = Array(repeating: "?", count: inserted.count).joined(separator: ", ")
        self.insertSQL = "INSERT INTO \(table) (\(inserted.joined(separator: ", "))) VALUES (\(marks))"
        let assignments = (["keyclass", "ukey", "wkey", "attrs", "secret", "tag"] + indexColumns).map { "\($0) = ?" }
        self.updateSQL = "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE rowid = ?"
    }

    /// The table name: Apple's class string (`genp`, `inet`, `cert`, `keys`).
    var table: String { itemClass.rawValue }

    /// The column name of an attribute code.
    static func column(_ code: String) -> String { "i_" + code }

    /// Codes are interpolated into SQL, so they must be plain identifiers.
    static func isValidCode(_ code: String) -> Bool {
        !code.isEmpty && code.count <= 16
            && code.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }

    /// `CREATE TABLE` and `CREATE INDEX` statements of this table, with full indexes (as v1 created them).
    var createSQL: String {
        var sql = tableSQL
        for code in indexed.keys.sorted() {
            sql += "CREATE INDEX \(indexName(code)) ON \(table)(\(Self.column(code)));\n"
        }
        return sql
    }

    /// `CREATE TABLE` and `CREATE INDEX … WHERE column IS NOT NULL` statements: a table added after v2
    /// starts with the partial indexes v2 gave the password tables (see ``partialIndexSQL``).
    var createWithPartialIndexesSQL: String {
        tableSQL + indexed.keys.sorted().map(partialIndexCreation).joined()
    }

    /// The `CREATE TABLE` statement alone.
    private var tableSQL: String {
        var columns = [
            "rowid INTEGER PRIMARY KEY AUTOINCREMENT",
            "pref BLOB NOT NULL UNIQUE CHECK (length(pref) = 16)",
            "keyclass INTEGER NOT NULL CHECK (keyclass BETWEEN 6 AND 12)",
            "ukey BLOB NOT NULL UNIQUE",
            "wkey BLOB NOT NULL",
            "attrs BLOB NOT NULL",
            "secret BLOB NOT NULL",
            "tag BLOB NOT NULL",
        ]
        columns += codes.map { "\(Self.column($0)) BLOB" }
        return "CREATE TABLE \(table) (\n  " + columns.joined(separator: ",\n  ") + "\n);\n"
    }

    /// The SQL index of an attribute's column.
    func indexName(_ code: String) -> String { "\(table)_\(Self.column(code))" }

    /// `DROP INDEX` and `CREATE INDEX … WHERE column IS NOT NULL` for every indexed attribute (v2).
    ///
    /// A partial index has no entry for a row without the attribute, so adding an item touches only the
    /// indexes of the attributes it has (most items have no type, view hint, token, sharing group or
    /// digest). Every filter is an equality or `IN`, which implies `IS NOT NULL`, so SQLite still uses them.
    var partialIndexSQL: String {
        indexed.keys.sorted().map { code in "DROP INDEX \(indexName(code));\n" + partialIndexCreation(code) }.joined()
    }

    /// `CREATE INDEX … WHERE column IS NOT NULL` for one indexed attribute.
    private func partialIndexCreation(_ code: String) -> String {
        "CREATE INDEX \(indexName(code)) ON \(table)(\(Self.column(code))) WHERE \(Self.column(code)) IS NOT NULL;\n"
    }

    /// Rows of `sqlite_stat1` that tell SQLite's planner how selective each index is.
    ///
    /// Blind indexes hide the data, and `ANALYZE` on a small keychain says little, so without these the
    /// planner treats all equality indexes alike and may scan the `agrp` index (every item of the
    /// group) instead of looking up the account. The numbers are fixed estimates, not measurements:
    /// `"10000 k"` = a table of 10 000 rows where one value is shared by k rows.
    var plannerStatistics: [(index: String, stat: String)] {
        indexed.keys.sorted().map { (indexName($0), "10000 \(indexed[$0]!)") }
    }
}
