import Foundation
import KeychainModel
import Query

/// A generic password (`kSecClassGenericPassword`): a secret stored under a service and an account.
///
/// The keychain holds at most one generic password per service, account, access group and
/// synchronizable flag (its primary key); adding a second is `errSecDuplicateItem` (-25299).
///
/// ```swift
/// let keychain = Keychain()
/// try await keychain.add(GenericPassword(service: "com.example.api", account: "alice", value: Data("s3cret".utf8)))
/// let item = try await keychain.item(matching: GenericPasswordQuery(service: "com.example.api", account: "alice"))
/// ```
///
/// Properties left nil are not written; the keychain fills its defaults (the caller's default access
/// group, `Accessibility.whenUnlocked`). Items read from the keychain carry every stored attribute
/// plus the read-only metadata ``creationDate``, ``modificationDate`` and ``persistentReference``.
/// Descriptions of an item never show its secret.
public struct GenericPassword: Sendable, Hashable {
    /// `kSecAttrService`: what the secret is for, such as a bundle or API identifier. Part of the primary key.
    public var service: String
    /// `kSecAttrAccount`: whose secret it is. Part of the primary key.
    public var account: String
    /// The secret (`kSecValueData`). Empty in items read without their secrets (``Keychain/attributes(matching:)``).
    public var value: Data
    /// `kSecAttrAccessGroup`: the access group; nil adds to the caller's default group (the first of its list).
    public var accessGroup: String?
    /// `kSecAttrLabel`: a name for people.
    public var label: String?
    /// `kSecAttrComment`: a comment for people.
    public var comment: String?
    /// `kSecAttrDescription`: what kind of secret this is, such as "API token".
    public var kind: String?
    /// `kSecAttrGeneric`: application data kept with the item (not secret, not part of the primary key).
    public var generic: Data?
    /// `kSecAttrCreator`: a four-character creator code, packed big-endian (`0x61626364` is `abcd`).
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

    /// A generic password to add or set.
    public init(
        service: String, account: String, value: Data, accessGroup: String? = nil, label: String? = nil,
        comment: String? = nil, kind: String? = nil, generic: Data? = nil, creator: UInt32? = nil, type: UInt32? = nil,
        isInvisible: Bool? = nil, isNegative: Bool? = nil, synchronizable: Bool = false,
        accessibility: Accessibility? = nil, accessControl: AccessControl? = nil
    ) {
        self.service = service
        self.account = account
        self.value = value
        self.accessGroup = accessGroup
        self.label = label
        self.comment = comment
        self.kind = kind
        self.generic = generic
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

extension GenericPassword: KeychainItem {
    /// The attributes of a generic password: each property with its `kSecAttr…` key and how
    /// it reads back, and the payload, `kSecValueData`.
    public static let schema = ItemSchema<GenericPassword>(
        .genericPassword, blank: GenericPassword(service: "", account: "", value: Data()),
        value: ItemAttribute("value", \.value, QueryKey.valueData, .data),
        attributes: [
            ItemAttribute("service", \.service, QueryKey.service, .text),
            ItemAttribute("account", \.account, QueryKey.account, .text),
            ItemAttribute("accessGroup", \.accessGroup, QueryKey.accessGroup, .text),
            ItemAttribute("label", \.label, QueryKey.label, .text),
            ItemAttribute("comment", \.comment, QueryKey.comment, .text),
            ItemAttribute("kind", \.kind, QueryKey.description, .text),
            ItemAttribute("generic", \.generic, QueryKey.generic, .data),
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
