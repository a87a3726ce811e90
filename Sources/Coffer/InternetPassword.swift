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
    /// The secret (`kSecValueData`). Empty in items read without their secrets (``Keychain``'s `attributes(matching:)`).
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
    static let itemClass = ItemClass.internetPassword

    var attributes: AttributeEntries {
        var entries = AttributeEntries()
        entries.set(QueryKey.server, server)
        entries.set(QueryKey.account, account)
        entries.set(QueryKey.securityDomain, securityDomain)
        entries.set(QueryKey.protocol, self.protocol)
        entries.set(QueryKey.authenticationType, authenticationType)
        entries.set(QueryKey.port, port)
        entries.set(QueryKey.path, path)
        entries.set(QueryKey.accessGroup, accessGroup)
        entries.set(QueryKey.label, label)
        entries.set(QueryKey.comment, comment)
        entries.set(QueryKey.description, kind)
        entries.set(QueryKey.creator, creator)
        entries.set(QueryKey.type, type)
        entries.set(QueryKey.isInvisible, isInvisible)
        entries.set(QueryKey.isNegative, isNegative)
        entries.set(QueryKey.synchronizable, synchronizable)
        entries.set(QueryKey.accessible, accessibility)
        entries.set(QueryKey.accessControl, accessControl)
        return entries
    }

    init(reading result: AttributeReader) {
        self.init(
            server: result.string(QueryKey.server) ?? "", account: result.string(QueryKey.account) ?? "",
            value: result.secret, securityDomain: result.string(QueryKey.securityDomain) ?? "",
            protocol: result.internetProtocol, authenticationType: result.authenticationType,
            port: result.integer(QueryKey.port).map { Int(clamping: $0) } ?? 0,
            path: result.string(QueryKey.path) ?? "", accessGroup: result.string(QueryKey.accessGroup),
            label: result.string(QueryKey.label), comment: result.string(QueryKey.comment),
            kind: result.string(QueryKey.description), creator: result.fourCharCode(QueryKey.creator),
            type: result.fourCharCode(QueryKey.type), isInvisible: result.bool(QueryKey.isInvisible),
            isNegative: result.bool(QueryKey.isNegative),
            synchronizable: result.bool(QueryKey.synchronizable) ?? false,
            accessibility: result.accessControl == nil ? result.accessibility : nil,
            accessControl: result.accessControl)
        creationDate = result.date(QueryKey.creationDate)
        modificationDate = result.date(QueryKey.modificationDate)
        persistentReference = result.persistentReference
    }
}

extension InternetPassword: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The item's attributes, with the secret shown only by its length.
    public var description: String { ItemDescription(self).text }
    /// Same as ``description``: the secret is never shown.
    public var debugDescription: String { description }
    /// A mirror without the secret's bytes, so `dump(_:)` does not print them.
    public var customMirror: Mirror { ItemDescription(self).mirror(of: self) }
}
