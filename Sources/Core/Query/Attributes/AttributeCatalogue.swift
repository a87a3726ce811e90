import KeychainModel

/// The attributes of each item class (§1.3) and their uniqueness keys (§1.4).
///
/// Password, certificate and key classes are complete (a certificate's derived attributes are
/// ``CertificateItem``'s). An identity has no attributes of its own: names resolve against the certificate first, then the key.
public enum AttributeCatalogue {
    /// Every attribute of `itemClass`, in Apple's schema order.
    public static func descriptors(for itemClass: ItemClass) -> [AttributeDescriptor] {
        table(itemClass).list
    }

    /// The attribute `code` of `itemClass`, or nil when the class has no such attribute (→ -25303).
    public static func descriptor(for code: String, in itemClass: ItemClass) -> AttributeDescriptor? {
        table(itemClass).byCode[code]
    }

    /// The codes of the class's uniqueness constraint, in Apple's `UNIQUE(…)` order (§1.4).
    public static func uniquenessCodes(for itemClass: ItemClass) -> [String] {
        uniquenessOrder(itemClass)
    }

    /// Column names Apple's class schema has besides the attributes (they count toward the query key cap, G15).
    static let internalSchemaNames: Set<String> = ["rowid", "data", "v_Data", "v_pk", "u_Tomb"]

    /// The number of entries Apple's class schema has, the base of the 128-key cap (§2.1, G15).
    static func schemaEntryCount(for itemClass: ItemClass) -> Int {
        descriptors(for: itemClass).count + internalSchemaNames.count
    }

    private static func uniquenessOrder(_ itemClass: ItemClass) -> [String] {
        let shared = ["agrp", "sync", "vwht", "tkid", "musr", "ggrp"]
        return switch itemClass {
        case .genericPassword: ["acct", "svce"] + shared
        case .internetPassword: ["acct", "sdmn", "srvr", "ptcl", "atyp", "port", "path"] + shared
        case .certificate: ["ctyp", "issr", "slnr"] + shared
        case .key, .identity: ["kcls", "klbl", "atag", "crtr", "type", "bsiz", "esiz", "sdat", "edat"] + shared
        }
    }

    private struct Table: Sendable {
        let list: [AttributeDescriptor]
        let byCode: [String: AttributeDescriptor]

        init(_ list: [AttributeDescriptor]) {
            var seen: [String: AttributeDescriptor] = [:]
            var unique: [AttributeDescriptor] = []
            for descriptor in list where seen[descriptor.code] == nil {
                seen[descriptor.code] = descriptor
                unique.append(descriptor)
            }
            self.list = unique
            self.byCode = seen
        }
    }

    private static let genericPasswordTable = Table(ClassSchema.genericPassword)
    private static let internetPasswordTable = Table(ClassSchema.internetPassword)
    private static let certificateTable = Table(ClassSchema.certificate)
    private static let keyTable = Table(ClassSchema.key)
    private static let identityTable = Table(ClassSchema.certificate + ClassSchema.key)

    /// The class's table; a switch rather than a dictionary, since every attribute lookup starts here.
    private static func table(_ itemClass: ItemClass) -> Table {
        switch itemClass {
        case .genericPassword: genericPasswordTable
        case .internetPassword: internetPasswordTable
        case .certificate: certificateTable
        case .key: keyTable
        case .identity: identityTable
        }
    }
}
