extension Schema {
    /// `keys` as created by v3 (reference §1.3.4, §5.5).
    ///
    /// A column for every attribute of the key class a search may filter on, as the password tables have:
    /// all but the access control, the bookkeeping Apple keeps out of searches by index (`tomb`, `UUID`, and
    /// `persistref`, which is the row's `pref`) and the SPI fields (`sysb`, `pcss`, `pcsk`, `pcsi`, `clip`).
    /// Indexed as Apple indexes keys (kcls, alis, klbl, atag, crtr, type, bsiz, esiz, sdat, edat, the usage
    /// flags Apple indexes, sha1, vwht, tkid, ggrp), plus `agrp`. Estimates: an application label names a key
    /// pair, a tag a few keys; a class, type, size or usage flag is shared by many; the start and end dates
    /// are almost always the default, so their indexes select nothing.
    static let keyV3 = TableSchema(
        itemClass: .key,
        codes: [
            "cdat", "mdat", "kcls", "labl", "alis", "perm", "priv", "modi", "klbl", "atag", "crtr", "type", "bsiz",
            "esiz", "sdat", "edat", "sens", "asen", "extr", "next", "encr", "decr", "drve", "sign", "vrfy", "snrc",
            "vyrc", "wrap", "unwp", "agrp", "pdmn", "sync", "sha1", "vwht", "tkid", "musr", "ggrp",
        ],
        indexed: [
            "klbl": 2, "alis": 2, "atag": 4, "sha1": 1, "agrp": 200,
            "kcls": 5000, "crtr": 5000, "type": 3000, "bsiz": 3000, "esiz": 3000, "sdat": 10000, "edat": 10000,
            "encr": 5000, "decr": 5000, "drve": 5000, "sign": 5000, "vrfy": 5000, "wrap": 5000, "unwp": 5000,
            "vwht": 5000, "tkid": 5000, "ggrp": 5000,
        ]
    )
}
