import KeychainModel

/// Apple's constant names for the raw strings of a query dictionary, so that a rejection says
/// `kSecAttrServer` where the dictionary says `srvr`.
///
/// Attribute names come from the attribute schema (``AttributeDescriptor/constantName``) rather than being
/// written a second time; this table adds the keys that are not attributes, the class codes and the value
/// constants a rejection mentions. Only rejections read it, so nothing here runs on a successful parse.
enum AppleNames {
    /// The key `key` as people should read it: Apple's constant name, or the raw key in quotes when Apple has
    /// none (`prot`) or the key is unknown.
    static func key(_ key: String, in itemClass: ItemClass? = nil) -> String {
        constantName(ofKey: key, in: itemClass) ?? quoted(key)
    }

    /// Apple's constant name of the key `key`, or nil. The class's own name wins where classes disagree
    /// (`crtr` is `kSecAttrCreator` for passwords, `kSecAttrKeyCreator` for keys).
    static func constantName(ofKey key: String, in itemClass: ItemClass? = nil) -> String? {
        if let itemClass, let descriptor = AttributeCatalogue.descriptor(for: key, in: itemClass) {
            return descriptor.constantName
        }
        return attributeNames[key] ?? otherKeys[key]
    }

    /// Apple's name of `itemClass`, such as `kSecClassGenericPassword`.
    static func itemClass(_ itemClass: ItemClass) -> String {
        classCode(itemClass.rawValue)
    }

    /// The `kSecClass` value `code` as people should read it: Apple's name, or the raw string in quotes.
    static func classCode(_ code: String) -> String {
        classNames[code] ?? quoted(code)
    }

    /// Apple's name of the `kSecAttrAccessible` value `protection`.
    static func protection(_ protection: ProtectionClass) -> String {
        switch protection {
        case .whenUnlocked: "kSecAttrAccessibleWhenUnlocked"
        case .afterFirstUnlock: "kSecAttrAccessibleAfterFirstUnlock"
        case .always: "kSecAttrAccessibleAlways"
        case .whenUnlockedThisDeviceOnly: "kSecAttrAccessibleWhenUnlockedThisDeviceOnly"
        case .afterFirstUnlockThisDeviceOnly: "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly"
        case .alwaysThisDeviceOnly: "kSecAttrAccessibleAlwaysThisDeviceOnly"
        case .whenPasscodeSetThisDeviceOnly: "kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly"
        }
    }

    /// The value constant `value` as people should read it (`m_LimitOne` is `kSecMatchLimitOne`), or the raw
    /// string in quotes.
    static func constant(_ value: String) -> String {
        constantNames[value] ?? quoted(value)
    }

    /// `text` in quotes with Swift's escapes, cut to 40 characters, for strings that have no Apple name.
    static func quoted(_ text: String) -> String {
        let limit = 40
        guard text.count > limit else { return String(reflecting: text) }
        return String(reflecting: String(text.prefix(limit))) + "…"
    }

    /// Attribute codes by Apple name, from the schema; the first class to name a code gives its plain name.
    private static let attributeNames: [String: String] = {
        var names: [String: String] = [:]
        for itemClass in [ItemClass.genericPassword, .internetPassword, .certificate, .key] {
            for descriptor in AttributeCatalogue.descriptors(for: itemClass) where names[descriptor.code] == nil {
                if let name = descriptor.constantName { names[descriptor.code] = name }
            }
        }
        return names
    }()

    /// The keys that are not attributes of any class.
    private static let otherKeys: [String: String] = [
        QueryKey.itemClass: "kSecClass",
        QueryKey.identityCertificateData: "kSecAttrIdentityCertificateData",
        QueryKey.identityCertificateTokenID: "kSecAttrIdentityCertificateTokenID",
        QueryKey.useDataProtectionKeychain: "kSecUseDataProtectionKeychain",
        QueryKey.matchLimit: "kSecMatchLimit",
        QueryKey.matchPolicy: "kSecMatchPolicy",
        QueryKey.matchItemList: "kSecMatchItemList",
        QueryKey.matchSearchList: "kSecMatchSearchList",
        QueryKey.matchIssuers: "kSecMatchIssuers",
        QueryKey.matchEmailAddressIfPresent: "kSecMatchEmailAddressIfPresent",
        QueryKey.matchSubjectContains: "kSecMatchSubjectContains",
        QueryKey.matchCaseInsensitive: "kSecMatchCaseInsensitive",
        QueryKey.matchTrustedOnly: "kSecMatchTrustedOnly",
        QueryKey.matchValidOnDate: "kSecMatchValidOnDate",
        QueryKey.matchHostOrSubdomainOfHost: "kSecMatchHostOrSubdomainOfHost",
        QueryKey.returnData: "kSecReturnData",
        QueryKey.returnAttributes: "kSecReturnAttributes",
        QueryKey.returnRef: "kSecReturnRef",
        QueryKey.returnPersistentRef: "kSecReturnPersistentRef",
        QueryKey.valueData: "kSecValueData",
        QueryKey.valueRef: "kSecValueRef",
        QueryKey.valuePersistentRef: "kSecValuePersistentRef",
        QueryKey.useItemList: "kSecUseItemList",
        QueryKey.useTombstones: "kSecUseTombstones",
        QueryKey.useCredentialReference: "kSecUseCredentialReference",
        QueryKey.useOperationPrompt: "kSecUseOperationPrompt",
        QueryKey.useNoAuthenticationUI: "kSecUseNoAuthenticationUI",
        QueryKey.useAuthenticationUI: "kSecUseAuthenticationUI",
        QueryKey.useAuthenticationContext: "kSecUseAuthenticationContext",
        // QueryKey.entitledUseKeys
        "u_SystemKeychain": "kSecUseSystemKeychain",
        "u_SystemKeychainAlways": "kSecUseSystemKeychainAlways",
        "u_SyncBubbleKeychain": "kSecUseSyncBubbleKeychain",
        "u_UserIndependentKeychain": "kSecUseUserIndependentKeychain",
        "u_CallerName": "kSecUseCallerName",
        "u_TokenRawItems": "kSecUseTokenRawItems",
        "u_CertWithIssuers": "kSecUseCertificatesWithMatchIssuers",
    ]

    /// The `kSecClass` values, including `apls`, which Apple parses but never stores.
    private static let classNames: [String: String] = [
        QueryConstant.classGenericPassword: "kSecClassGenericPassword",
        QueryConstant.classInternetPassword: "kSecClassInternetPassword",
        QueryConstant.classCertificate: "kSecClassCertificate",
        QueryConstant.classKey: "kSecClassKey",
        QueryConstant.classIdentity: "kSecClassIdentity",
        QueryConstant.classAppleSharePassword: "kSecClassAppleSharePassword",
    ]

    /// The value constants a rejection mentions.
    private static let constantNames: [String: String] = [
        QueryConstant.matchLimitOne: "kSecMatchLimitOne",
        QueryConstant.matchLimitAll: "kSecMatchLimitAll",
        QueryConstant.authenticationUIAllow: "kSecUseAuthenticationUIAllow",
        QueryConstant.authenticationUIFail: "kSecUseAuthenticationUIFail",
        QueryConstant.authenticationUISkip: "kSecUseAuthenticationUISkip",
        QueryConstant.synchronizableAny: "kSecAttrSynchronizableAny",
        QueryConstant.accessGroupToken: "kSecAttrAccessGroupToken",
        QueryConstant.accessibleUntilReboot: "kSecAttrAccessibleUntilReboot",
    ]
}

/// The reverse of Apple's names: the string a `kSec…` constant stands for, from the same tables that name a
/// dictionary's keys and values in rejections (for tools that read source code, such as `coffer lint`).
public enum AppleConstantNames {
    /// The string the constant `name` stands for (`kSecAttrService` → `svce`, `kSecClassGenericPassword` → `genp`,
    /// `kSecAttrAccessibleWhenUnlocked` → `ak`); nil for a name these tables do not hold.
    public static func code(of name: String) -> String? { codes[name] }

    private static let codes: [String: String] = {
        var codes: [String: String] = [:]
        for itemClass in [ItemClass.genericPassword, .internetPassword, .certificate, .key] {
            for descriptor in AttributeCatalogue.descriptors(for: itemClass) {
                if let name = descriptor.constantName, codes[name] == nil { codes[name] = descriptor.code }
            }
        }
        for table in [AppleNames.otherKeysByCode, AppleNames.classNamesByCode, AppleNames.constantNamesByCode] {
            for (code, name) in table where codes[name] == nil { codes[name] = code }
        }
        for protection in ProtectionClass.allCases { codes[AppleNames.protection(protection)] = protection.rawValue }
        for (suffix, code) in QueryConstant.protocols { codes["kSecAttrProtocol" + suffix] = code }
        for (suffix, code) in QueryConstant.authenticationTypes { codes["kSecAttrAuthenticationType" + suffix] = code }
        codes.merge(QueryConstant.keyAttributeValues) { current, _ in current }
        // Other names of keys: macOS's older name of kSecUseDataProtectionKeychain, and Apple's misspelt alias.
        codes["kSecAttrNoLegacy"] = QueryKey.useDataProtectionKeychain
        codes["kSecAttrPersistantReference"] = QueryKey.persistentReference
        // The keys only macOS's SecItem functions know, which the Security module's shim removes.
        let macOSKeys = [
            "kSecUseKeychain": "u_Keychain", "kSecAttrAccess": "acls", "kSecMatchDiacriticInsensitive": "m_DiacriticInsensitive",
            "kSecMatchWidthInsensitive": "m_WidthInsensitive", "kSecMatchSubjectStartsWith": "m_SubjectStartsWith",
            "kSecMatchSubjectEndsWith": "m_SubjectEndsWith", "kSecMatchSubjectWholeString": "m_SubjectWholeString",
        ]
        codes.merge(macOSKeys) { current, _ in current }
        return codes
    }()
}

extension AppleNames {
    static var otherKeysByCode: [String: String] { otherKeys }
    static var classNamesByCode: [String: String] { classNames }
    static var constantNamesByCode: [String: String] { constantNames }
}
