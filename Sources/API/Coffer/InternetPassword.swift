import Foundation
import KeychainModel
import Query

/// An internet password (`kSecClassInternetPassword`): a secret for an account on a server.
///
/// The primary key is account, security domain, server, protocol, authentication type, port, path,
/// access group and synchronizable flag; adding a second item with the same key is
/// `errSecDuplicateItem` (-25299).
///
/// ```swift
/// let item = InternetPassword(server: "example.com", account: "alice", value: Data("s3cret".utf8), protocol: .https)
/// try await keychain.add(item)
/// ```
///
/// Properties left nil are not written; the keychain fills its defaults. Items read from the keychain
/// carry every stored attribute plus the read-only metadata ``creationDate``, ``modificationDate`` and
/// ``persistentReference``. Descriptions of an item never show its secret.
public struct InternetPassword: Sendable, Hashable {
    /// `kSecAttrServer`: the host name or address. Part of the primary key.
    public var server: String
    /// `kSecAttrAccount`: the user name. Part of the primary key.
    public var account: String
    /// The secret (`kSecValueData`). Empty in items read without their secrets (``Keychain/attributes(matching:)``).
    public var value: Data
    /// `kSecAttrSecurityDomain`: the realm, such as an HTTP authentication realm. Part of the primary key.
    public var securityDomain: String
    /// `kSecAttrProtocol`: nil when not set. Part of the primary key.
    public var `protocol`: InternetProtocol?
    /// `kSecAttrAuthenticationType`: nil when not set. Part of the primary key.
    public var authenticationType: AuthenticationType?
    /// `kSecAttrPort`: 0 when not set. Part of the primary key.
    public var port: Int
    /// `kSecAttrPath`: the path on the server. Part of the primary key.
    public var path: String
    /// `kSecAttrAccessGroup`: the access group; nil adds to the caller's default group (the first of its list).
    public var accessGroup: String?
    /// `kSecAttrLabel`: a name for people.
    public var label: String?
    /// `kSecAttrComment`: a comment for people.
    public var comment: String?
    /// `kSecAttrDescription`: what kind of secret this is.
    public var kind: String?
    /// `kSecAttrCreator`: a four-character creator code, packed big-endian.
    public var creator: UInt32?
    /// `kSecAttrType`: a four-character type code, packed big-endian.
    public var type: UInt32?
    /// `kSecAttrIsInvisible`: whether the item should be hidden from people browsing the keychain.
    public var isInvisible: Bool?
    /// `kSecAttrIsNegative`: whether the item records that there is no valid password.
    public var isNegative: Bool?
    /// `kSecAttrSynchronizable`: whether the item may be synchronized to other machines. Part of the primary key.
    public var synchronizable: Bool
    /// `kSecAttrAccessible`: when the secret can be read; nil means `Accessibility.whenUnlocked`.
    /// Give either this or ``accessControl``, not both (`errSecParam`, -50).
    public var accessibility: Accessibility?
    /// `kSecAttrAccessControl`: the protection class plus the authentication reading requires.
    public var accessControl: AccessControl?
    /// `kSecAttrCreationDate`: when the item was added (read-only; set by the keychain).
    public internal(set) var creationDate: Date?
    /// `kSecAttrModificationDate`: when the item last changed (read-only; set by the keychain).
    public internal(set) var modificationDate: Date?
    /// The item's persistent reference (read-only): stable across updates, usable in queries.
    public internal(set) var persistentReference: PersistentReference?

    /// An internet password to add or set.
    public init(
        server: String, account: String, value: Data, securityDomain: String = "",
        protocol: InternetProtocol? = nil, authenticationType: AuthenticationType? = nil, port: Int = 0,
        path: String = "", accessGroup: String? = nil, label: String? = nil, comment: String? = nil,
        kind: String? = nil, creator: UInt32? = nil, type: UInt32? = nil, isInvisible: Bool? = nil,
        isNegative: Bool? = nil, synchronizable: Bool = false, accessibility: Accessibility? = nil,
        accessControl: AccessControl? = nil
    ) {
        self.server = server
        self.account = account
        self.value = value
        self.securityDomain = securityDomain
        self.protocol = `protocol`
        self.authenticationType = authenticationType
        self.port = port
        self.path = path
        self.accessGroup = accessGroup
        self.label = label
        self.comment = comment
        self.kind = kind
        self.creator = creator
        self.type = type
        self.isInvisible = isInvisible
        self.isNegative = isNegative
        self.synchronizable = synchronizable
        self.accessibility = accessibility
        self.accessControl = accessControl
    }

    /// The protection class in force: ``accessControl``'s when there is one, else ``accessibility``.
    public var effectiveAccessibility: Accessibility? { accessControl?.protection ?? accessibility }
}

extension InternetPassword: KeychainItem {
    /// The attributes of an internet password: each property with its `kSecAttr…` key and how
    /// it reads back, and the payload, `kSecValueData`.
    public static let schema = ItemSchema<InternetPassword>(
        .internetPassword, blank: InternetPassword(server: "", account: "", value: Data()),
        value: ItemAttribute("value", \.value, QueryKey.valueData, .data),
        attributes: [
            ItemAttribute("server", \.server, QueryKey.server, .text),
            ItemAttribute("account", \.account, QueryKey.account, .text),
            ItemAttribute("securityDomain", \.securityDomain, QueryKey.securityDomain, .text),
            ItemAttribute("protocol", \.protocol, QueryKey.protocol, .internetProtocol),
            ItemAttribute("authenticationType", \.authenticationType, QueryKey.authenticationType, .authenticationType),
            ItemAttribute("port", \.port, QueryKey.port, .integer),
            ItemAttribute("path", \.path, QueryKey.path, .text),
            ItemAttribute("accessGroup", \.accessGroup, QueryKey.accessGroup, .text),
            ItemAttribute("label", \.label, QueryKey.label, .text),
            ItemAttribute("comment", \.comment, QueryKey.comment, .text),
            ItemAttribute("kind", \.kind, QueryKey.description, .text),
            ItemAttribute("creator", \.creator, QueryKey.creator, .fourCharCode),
            ItemAttribute("type", \.type, QueryKey.type, .fourCharCode),
            ItemAttribute("isInvisible", \.isInvisible, QueryKey.isInvisible, .flag),
            ItemAttribute("isNegative", \.isNegative, QueryKey.isNegative, .flag),
            ItemAttribute("synchronizable", \.synchronizable, QueryKey.synchronizable, .flag),
            ItemAttribute("accessibility", \.accessibility, QueryKey.accessible, .protection),
            ItemAttribute("accessControl", \.accessControl, QueryKey.accessControl, .accessControl),
            ItemAttribute("creationDate", \.creationDate, QueryKey.creationDate, .date, metadata: true),
            ItemAttribute("modificationDate", \.modificationDate, QueryKey.modificationDate, .date, metadata: true),
            ItemAttribute("persistentReference", \.persistentReference, QueryKey.valuePersistentRef, .persistentReference, metadata: true),
        ])
}
