/// A pitfall `coffer lint` finds in code that calls Apple's keychain functions: its identifier, how serious it is,
/// why it matters and where Apple explains it.
public enum LintRule: String, Sendable, CaseIterable, Comparable {
    /// An attribute the item class does not have: errSecNoSuchAttr (-25303), or on macOS's file keychain a search
    /// that matches nothing.
    case attributeNotInClass = "attribute-not-in-class"
    /// `kSecMatchLimit` in `SecItemAdd`: a search key in an add, errSecParam (-50).
    case matchLimitInAdd = "match-limit-in-add"
    /// `kSecReturn…` in `SecItemUpdate`'s query or attributes: errSecParam (-50).
    case returnInUpdate = "return-in-update"
    /// `kSecValueData` in `SecItemUpdate`'s query (the search): errSecParam (-50).
    case valueInUpdateQuery = "value-in-update-query"
    /// `kSecClass` among `SecItemUpdate`'s attributes to change: errSecParam (-50).
    case classInUpdateAttributes = "class-in-update-attributes"
    /// `kSecAttrSynchronizable` true beside an access control with constraints: errSecParam (-50).
    case synchronizableAccessControl = "synchronizable-access-control"
    /// A search without `kSecMatchLimit` whose result is read as an array: it never is one.
    case missingMatchLimit = "missing-match-limit"
    /// `kSecAttrAccessibleAlways` or `…AlwaysThisDeviceOnly`: deprecated, readable while locked.
    case accessibleAlways = "accessible-always"
    /// `kSecAttrSynchronizable` true with a `…ThisDeviceOnly` protection: accepted, and never synchronized.
    case synchronizableThisDeviceOnly = "synchronizable-this-device-only"
    /// `SecItemDelete` then `SecItemAdd` of the same item instead of `SecItemUpdate`.
    case deleteThenAdd = "delete-then-add"
    /// An add that leaves part of the class's primary key out while a search tells items apart by an attribute
    /// that is not in it.
    case primaryKeyIncomplete = "primary-key-incomplete"
    /// A read of an item protected by `.userPresence` or biometry without an authentication context.
    case userPresenceWithoutContext = "user-presence-without-context"
    /// A SecItem call whose OSStatus nobody reads.
    case statusIgnored = "status-ignored"
    /// An update after any failure of `SecItemAdd`, without comparing the status to `errSecDuplicateItem`.
    case duplicateNotChecked = "duplicate-not-checked"
    /// A SecItem call in the `#if` branch macOS and Linux take, without `kSecUseDataProtectionKeychain: true`.
    case dataProtectionKeychainMissing = "data-protection-keychain-missing"
    /// Foundation's file protection, which does nothing on Linux.
    case fileProtectionOnLinux = "file-protection-on-linux"
    /// A secret written to standard output or a log without privacy.
    case secretInLog = "secret-in-log"
    /// A secret stored in `UserDefaults`, a plain file.
    case secretInUserDefaults = "secret-in-user-defaults"
    /// A password or key written into the source and given to a SecItem call.
    case hardCodedSecret = "hard-coded-secret"

    /// How serious a finding of the rule is.
    public enum Severity: String, Sendable, Comparable {
        case warning, error

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    /// The rule's severity: errors fail the call, or the read, every time; warnings are pitfalls that work until
    /// they do not, or leak.
    public var severity: Severity {
        switch self {
        case .attributeNotInClass, .matchLimitInAdd, .returnInUpdate, .valueInUpdateQuery, .classInUpdateAttributes, .synchronizableAccessControl,
            .missingMatchLimit:
            .error
        default: .warning
        }
    }

    /// One line on what the rule finds, for `--list-rules` and SARIF.
    public var summary: String {
        switch self {
        case .attributeNotInClass: "An attribute the item class does not have."
        case .matchLimitInAdd: "kSecMatchLimit, a search key, in SecItemAdd."
        case .returnInUpdate: "A kSecReturn key in SecItemUpdate, which returns nothing."
        case .valueInUpdateQuery: "kSecValueData in SecItemUpdate's query instead of its attributes to update."
        case .classInUpdateAttributes: "kSecClass among SecItemUpdate's attributes to update."
        case .synchronizableAccessControl: "kSecAttrSynchronizable true beside an access control with constraints."
        case .missingMatchLimit: "SecItemCopyMatching without kSecMatchLimit, its result read as an array."
        case .accessibleAlways: "The deprecated kSecAttrAccessibleAlways protection classes."
        case .synchronizableThisDeviceOnly: "kSecAttrSynchronizable true with a …ThisDeviceOnly protection."
        case .deleteThenAdd: "SecItemDelete then SecItemAdd where SecItemUpdate keeps the item."
        case .primaryKeyIncomplete: "Items told apart by an attribute that is not part of the class's primary key."
        case .userPresenceWithoutContext: "A read of a .userPresence or biometry item without kSecUseAuthenticationContext."
        case .statusIgnored: "A SecItem call whose OSStatus is never read."
        case .duplicateNotChecked: "An update after any SecItemAdd failure instead of after errSecDuplicateItem."
        case .dataProtectionKeychainMissing: "A SecItem call on the macOS branch without kSecUseDataProtectionKeychain."
        case .fileProtectionOnLinux: "Foundation's file protection, which does nothing on Linux."
        case .secretInLog: "A secret printed or logged without privacy."
        case .secretInUserDefaults: "A secret stored in UserDefaults."
        case .hardCodedSecret: "A password or key written into the source and stored in the keychain."
        }
    }

    /// Why the rule matters, for `--explain` and the JSON and SARIF outputs.
    public var reason: String {
        switch self {
        case .attributeNotInClass:
            "Each item class has its own attributes; one of another class makes the call fail with errSecNoSuchAttr (-25303), or on macOS's file-based keychain silently match nothing."
        case .matchLimitInAdd:
            "SecItemAdd takes attributes and return keys, not search keys: kSecMatchLimit makes it fail with errSecParam (-50)."
        case .returnInUpdate:
            "SecItemUpdate returns nothing: a kSecReturn key in its query or attributes makes it fail with errSecParam (-50)."
        case .valueInUpdateQuery:
            "SecItemUpdate's first dictionary is a search and its second the changes; the new data belongs in the second, and in the search it fails with errSecParam (-50)."
        case .classInUpdateAttributes:
            "An update cannot change an item's class: kSecClass belongs in the query only, and among the changes fails with errSecParam (-50)."
        case .synchronizableAccessControl:
            "An item that asks for the person (an access control with constraints such as .userPresence) cannot be synchronized: the add fails with errSecParam (-50)."
        case .missingMatchLimit:
            "A search returns one item unless kSecMatchLimit says otherwise (kSecMatchLimitOne is the default), so a result read as an array is never one; add kSecMatchLimit: kSecMatchLimitAll."
        case .accessibleAlways:
            "kSecAttrAccessibleAlways and kSecAttrAccessibleAlwaysThisDeviceOnly are deprecated: the item is readable while the device is locked. Use kSecAttrAccessibleAfterFirstUnlock (or its …ThisDeviceOnly form)."
        case .synchronizableThisDeviceOnly:
            "The keychain accepts kSecAttrSynchronizable true with a …ThisDeviceOnly protection and stores the item, but it never leaves the device: code that expects it on the person's other devices finds nothing there."
        case .deleteThenAdd:
            "Deleting then adding loses what the add does not repeat (creation date, persistent reference, attributes set elsewhere), leaves a moment with no item, and for a synchronized item a tombstone on every device. Add, and on errSecDuplicateItem update the item instead."
        case .primaryKeyIncomplete:
            "The keychain keeps one item per primary key (for a generic password: service and account, with access group and synchronizable). Attributes outside it, such as kSecAttrLabel or kSecAttrGeneric, do not make items distinct: the second add fails with errSecDuplicateItem and a search by them finds what another add wrote."
        case .userPresenceWithoutContext:
            "Reading an item protected by .userPresence or biometry asks the person on every read; in a background job or a daemon it fails with errSecInteractionNotAllowed. Evaluate an LAContext once and pass it as kSecUseAuthenticationContext, or say kSecUseAuthenticationUI: kSecUseAuthenticationUIFail where nobody can answer."
        case .statusIgnored:
            "SecItem calls report every failure only through their OSStatus (a locked keychain, a duplicate, a missing entitlement): unread, the failure passes silently and the data is not where the code thinks."
        case .duplicateNotChecked:
            "Updating after any failure of SecItemAdd treats errSecParam, errSecInteractionNotAllowed and errSecMissingEntitlement as 'already there'. Compare the status to errSecDuplicateItem before updating."
        case .dataProtectionKeychainMissing:
            "On Linux os(iOS) and os(macOS) are both false, so this branch runs there; on macOS it goes to the file-based keychain, which answers differently (attributes dropped, limits ignored). kSecUseDataProtectionKeychain: true gives the iOS keychain's behaviour on macOS and Linux alike."
        case .fileProtectionOnLinux:
            "FileProtectionType and the .completeFileProtection write options are honoured only by Apple's data protection: on Linux the file is written in the clear. Coffer's ProtectedFile.write(_:to:options:) encrypts it under the keychain's class keys with the same options."
        case .secretInLog:
            "Standard output, print and logs end up in crash reports, journald and CI logs. Log that a secret exists, never its value; with OSLog mark the value privacy: .private (swift-log has no redaction)."
        case .secretInUserDefaults:
            "UserDefaults is a property list file anyone with the user's files can read, and it is backed up in the clear. Keep secrets in the keychain."
        case .hardCodedSecret:
            "A secret written into the source is in every copy of the program and its repository; storing it in the keychain protects nothing. Read it from the person, a provisioning step or a secret manager."
        }
    }

    /// Where Apple, or Coffer's documentation, explains the pitfall.
    public var documentation: String {
        switch self {
        case .attributeNotInClass, .matchLimitInAdd, .returnInUpdate, .valueInUpdateQuery, .classInUpdateAttributes, .missingMatchLimit,
            .primaryKeyIncomplete, .deleteThenAdd, .duplicateNotChecked, .statusIgnored:
            "https://developer.apple.com/forums/thread/724013"
        case .accessibleAlways: "https://developer.apple.com/documentation/security/ksecattraccessiblealways"
        case .synchronizableAccessControl, .synchronizableThisDeviceOnly: "https://developer.apple.com/documentation/security/ksecattrsynchronizable"
        case .userPresenceWithoutContext: "https://developer.apple.com/documentation/security/ksecuseauthenticationcontext"
        case .dataProtectionKeychainMissing: "https://developer.apple.com/documentation/security/ksecusedataprotectionkeychain"
        case .fileProtectionOnLinux: "https://developer.apple.com/documentation/foundation/fileprotectiontype"
        case .secretInLog: "https://developer.apple.com/documentation/os/logger"
        case .secretInUserDefaults: "https://developer.apple.com/documentation/foundation/userdefaults"
        case .hardCodedSecret: "https://developer.apple.com/documentation/security/keychain-services"
        }
    }

    public static func < (lhs: LintRule, rhs: LintRule) -> Bool { lhs.rawValue < rhs.rawValue }
}
