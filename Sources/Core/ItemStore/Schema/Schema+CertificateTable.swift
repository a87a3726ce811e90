extension Schema {
    /// `cert` as created by v4 (reference §1.3.3, §5.5).
    ///
    /// A column for every attribute of the certificate class a search may filter on, as the other tables have:
    /// all but the access control, the bookkeeping Apple keeps out of searches by index (`tomb`, `UUID`, and
    /// `persistref`, which is the row's `pref`) and the SPI fields (`sysb`, `pcss`, `pcsk`, `pcsi`, `clip`).
    /// Indexed as Apple indexes certificates (ctyp, alis, subj, issr, slnr, skid, pkhh, sha1, vwht, tkid, ggrp),
    /// plus `agrp`. Estimates: a serial number, key identifier or public key hash names about one certificate
    /// (the hash is what an identity joins on), a subject a few; an issuer is shared by the certificates it
    /// issued; the type is almost always 3 (X.509 v3), so its index selects nothing.
    static let certificateV4 = TableSchema(
        itemClass: .certificate,
        codes: [
            "cdat", "mdat", "ctyp", "cenc", "labl", "alis", "subj", "issr", "slnr", "skid", "pkhh",
            "agrp", "pdmn", "sync", "sha1", "vwht", "tkid", "musr", "ggrp",
        ],
        indexed: [
            "alis": 2, "subj": 3, "issr": 50, "slnr": 2, "skid": 1, "pkhh": 2, "sha1": 1, "agrp": 200,
            "ctyp": 10000, "vwht": 5000, "tkid": 5000, "ggrp": 5000,
        ]
    )
}
