import Foundation

/// The attribute lists of Apple's schema 12.11 (§1.3), as descriptors.
///
/// Every attribute carries Apple's H flag (``AttributeDescriptor/Flags/inDigest``: part of the item's `sha1`)
/// unless it is one of the bookkeeping attributes Apple leaves out of the digest: `sha1` itself, `accc`, `musr`,
/// `UUID`, `persistref`, `clip` and the `inet` secret fields `bin*` (keychain/securityd/SecItemSchema.c, the
/// H column of each `SECDB_ATTR`). The flag is added by the helpers below and listed where flags are explicit.
enum ClassSchema {
    private typealias Flags = AttributeDescriptor.Flags

    private static func attribute(
        _ code: String, _ constant: String?, _ kind: AttributeKind, _ flags: Flags = [.returned, .inDigest],
        default defaultValue: AttributeValue? = nil, access: AttributeDescriptor.CallerAccess = .settable
    ) -> AttributeDescriptor {
        AttributeDescriptor(
            code: code, constantName: constant, kind: kind, flags: flags, defaultValue: defaultValue,
            callerAccess: access)
    }

    /// A hashed, returned Blob attribute.
    private static func blob(_ code: String, _ constant: String?, _ extra: Flags = []) -> AttributeDescriptor {
        attribute(code, constant, .blob, Flags([.returned, .hashed, .inDigest]).union(extra))
    }

    /// A hashed NOT NULL Blob key attribute defaulting to `""`.
    private static func blobKey(_ code: String, _ constant: String) -> AttributeDescriptor {
        attribute(
            code, constant, .blob, [.returned, .hashed, .primaryKey, .notNull, .indexed, .inDigest],
            default: .string(""))
    }

    /// A NOT NULL Number key attribute defaulting to 0.
    private static func numberKey(_ code: String, _ constant: String, _ extra: Flags = []) -> AttributeDescriptor {
        attribute(
            code, constant, .number, Flags([.returned, .primaryKey, .notNull, .indexed, .inDigest]).union(extra),
            default: .number(0))
    }

    private static func number(_ code: String, _ constant: String?, _ extra: Flags = []) -> AttributeDescriptor {
        attribute(code, constant, .number, Flags([.returned, .inDigest]).union(extra))
    }

    /// Attributes every class has (§1.3.1), after the class's own.
    static let common: [AttributeDescriptor] = [
        attribute("agrp", "kSecAttrAccessGroup", .string, [.returned, .primaryKey, .notNull, .inDigest]),
        attribute("pdmn", "kSecAttrAccessible", .access),
        attribute(
            "sync", "kSecAttrSynchronizable", .sync, [.returned, .primaryKey, .notNull, .inDigest], default: .number(0)),
        attribute(
            "tomb", "kSecAttrTombstone", .tombstone, [.notNull, .inDigest], default: .number(0), access: .managed),
        // The engine computes `sha1` (ItemDigest). As on Apple's keychain a caller's value is validated (20 bytes)
        // and then dropped by add and update, but matches like any attribute in a query: `query_add_attribute_with_desc`
        // (keychain/securityd/SecDbQuery.c) keeps SHA1-kind values out of the item it builds yet records them
        // in the query's attribute pairs, which become `sha1 = ?` in SecItemDb.c's select.
        attribute("sha1", "kSecAttrSHA1", .sha1, [.returned, .indexed], access: .managed),
        attribute("vwht", "kSecAttrSyncViewHint", .string, [.returned, .primaryKey, .indexed, .inDigest]),
        attribute("tkid", "kSecAttrTokenID", .string, [.returned, .primaryKey, .indexed, .inDigest]),
        attribute("accc", "kSecAttrAccessControl", .accessControl, [.returned]),
        attribute(
            "musr", "kSecAttrMultiUser", .uuid, [.primaryKey, .notNull], default: .data(Data()), access: .callerView),
        attribute("UUID", "kSecAttrUUID", .string, [.indexed], access: .managed),
        number("sysb", "kSecAttrSysBound"),
        number("pcss", "kSecAttrPCSPlaintextServiceIdentifier"),
        attribute("pcsk", "kSecAttrPCSPlaintextPublicKey", .blob),
        attribute("pcsi", "kSecAttrPCSPlaintextPublicIdentity", .blob),
        attribute("persistref", "kSecAttrPersistentReference", .uuid, [.indexed, .notNull], access: .managed),
        attribute("clip", "kSecAttrAppClipItem", .number, [.notNull], access: .forbidden),
        attribute(
            "ggrp", "kSecAttrSharingGroup", .string, [.returned, .primaryKey, .indexed, .inDigest],
            access: .sharingGroup),
    ]

    /// The dates and label every class starts with.
    private static let leading: [AttributeDescriptor] = [
        attribute("cdat", "kSecAttrCreationDate", .creationDate),
        attribute("mdat", "kSecAttrModificationDate", .modificationDate),
    ]

    /// Attributes both password classes have, before their key attributes (§1.3.2).
    private static let passwordShared: [AttributeDescriptor] = [
        blob("desc", "kSecAttrDescription"),
        blob("icmt", "kSecAttrComment"),
        number("crtr", "kSecAttrCreator"),
        number("type", "kSecAttrType", [.indexed]),
        number("scrp", "kSecAttrScriptCode"),
        blob("labl", "kSecAttrLabel"),
    ]

    private static let passwordFlags: [AttributeDescriptor] = [
        number("invi", "kSecAttrIsInvisible"),
        number("nega", "kSecAttrIsNegative"),
        number("cusi", "kSecAttrHasCustomIcon"),
        blob("prot", nil),
        blobKey("acct", "kSecAttrAccount"),
    ]

    /// `genp` (§1.3.2).
    static let genericPassword: [AttributeDescriptor] =
        leading + passwordShared + [blob("alis", "kSecAttrAlias")] + passwordFlags + [
            blobKey("svce", "kSecAttrService"),
            blob("gena", "kSecAttrGeneric"),
        ] + common

    /// The secret extra data fields of `inet` (SPI), returned as data like `v_Data`.
    private static let inetSecrets: [AttributeDescriptor] = [
        ("binn", "kSecDataInetExtraNotes"), ("bini", "kSecDataInetExtraHistory"),
        ("bin0", "kSecDataInetExtraClientDefined0"), ("bin1", "kSecDataInetExtraClientDefined1"),
        ("bin2", "kSecDataInetExtraClientDefined2"), ("bin3", "kSecDataInetExtraClientDefined3"),
    ].map { attribute($0.0, $0.1, .data, [.secret]) }

    /// `inet` (§1.3.2).
    static let internetPassword: [AttributeDescriptor] =
        leading + passwordShared + [blob("alis", "kSecAttrAlias", [.indexed])] + passwordFlags + [
            blobKey("sdmn", "kSecAttrSecurityDomain"),
            blobKey("srvr", "kSecAttrServer"),
            numberKey("ptcl", "kSecAttrProtocol"),
            blobKey("atyp", "kSecAttrAuthenticationType"),
            numberKey("port", "kSecAttrPort"),
            blobKey("path", "kSecAttrPath"),
        ] + common + inetSecrets

    /// `cert` (§1.3.3).
    static let certificate: [AttributeDescriptor] =
        leading + [
            numberKey("ctyp", "kSecAttrCertificateType"),
            number("cenc", "kSecAttrCertificateEncoding"),
            blob("labl", "kSecAttrLabel"),
            blob("alis", "kSecAttrAlias", [.indexed]),
            attribute("subj", "kSecAttrSubject", .data, [.returned, .hashed, .indexed, .inDigest]),
            attribute(
                "issr", "kSecAttrIssuer", .data, [.returned, .hashed, .primaryKey, .notNull, .indexed, .inDigest],
                default: .data(Data())),
            attribute(
                "slnr", "kSecAttrSerialNumber", .data, [.returned, .hashed, .primaryKey, .notNull, .indexed, .inDigest],
                default: .data(Data())),
            attribute("skid", "kSecAttrSubjectKeyID", .data, [.returned, .hashed, .indexed, .inDigest]),
            attribute("pkhh", "kSecAttrPublicKeyHash", .data, [.returned, .indexed, .inDigest]),
        ] + common

    /// `keys` (§1.3.4).
    static let key: [AttributeDescriptor] =
        leading + [
            numberKey("kcls", "kSecAttrKeyClass", [.hashed]),
            blob("labl", "kSecAttrLabel"),
            blob("alis", "kSecAttrAlias", [.indexed]),
            number("perm", "kSecAttrIsPermanent"),
            number("priv", "kSecAttrIsPrivate"),
            number("modi", "kSecAttrIsModifiable"),
            attribute(
                "klbl", "kSecAttrApplicationLabel", .data, [.returned, .primaryKey, .notNull, .indexed, .inDigest],
                default: .data(Data())),
            blobKey("atag", "kSecAttrApplicationTag"),
            numberKey("crtr", "kSecAttrKeyCreator"),
            numberKey("type", "kSecAttrKeyType"),
            numberKey("bsiz", "kSecAttrKeySizeInBits"),
            numberKey("esiz", "kSecAttrEffectiveKeySize"),
            attribute(
                "sdat", "kSecAttrStartDate", .date, [.returned, .primaryKey, .notNull, .indexed, .inDigest],
                default: .date(Date(timeIntervalSinceReferenceDate: 0))),
            attribute(
                "edat", "kSecAttrEndDate", .date, [.returned, .primaryKey, .notNull, .indexed, .inDigest],
                default: .date(Date(timeIntervalSinceReferenceDate: 0))),
            number("sens", "kSecAttrIsSensitive"),
            number("asen", "kSecAttrWasAlwaysSensitive"),
            number("extr", "kSecAttrIsExtractable"),
            number("next", "kSecAttrWasNeverExtractable"),
            number("encr", "kSecAttrCanEncrypt", [.indexed]),
            number("decr", "kSecAttrCanDecrypt", [.indexed]),
            number("drve", "kSecAttrCanDerive", [.indexed]),
            number("sign", "kSecAttrCanSign", [.indexed]),
            number("vrfy", "kSecAttrCanVerify", [.indexed]),
            number("snrc", "kSecAttrCanSignRecover"),
            number("vyrc", "kSecAttrCanVerifyRecover"),
            number("wrap", "kSecAttrCanWrap", [.indexed]),
            number("unwp", "kSecAttrCanUnwrap", [.indexed]),
        ] + common
}
