import Foundation
import Query

/// New values for the generic passwords an update matches: every property that is set is written,
/// the others keep their stored values.
///
/// ```swift
/// try await keychain.update(
///     matching: GenericPasswordQuery(service: "com.example.api", account: "alice"),
///     changes: GenericPasswordChanges(value: Data("new secret".utf8)))
/// ```
///
/// Changing ``service``, ``account``, ``accessGroup`` or ``synchronizable`` changes the primary key:
/// a collision with another item is `errSecDuplicateItem` (-25299) and nothing is changed.
public struct GenericPasswordChanges: Sendable, Hashable {
    /// A new secret (`kSecValueData`).
    public var value: Data?
    /// `kSecAttrService`.
    public var service: String?
    /// `kSecAttrAccount`.
    public var account: String?
    /// `kSecAttrAccessGroup`: moves the items to this group (it must be one of the caller's).
    public var accessGroup: String?
    /// `kSecAttrLabel`.
    public var label: String?
    /// `kSecAttrComment`.
    public var comment: String?
    /// `kSecAttrDescription`.
    public var kind: String?
    /// `kSecAttrGeneric`.
    public var generic: Data?
    /// `kSecAttrCreator`.
    public var creator: UInt32?
    /// `kSecAttrType`.
    public var type: UInt32?
    /// `kSecAttrIsInvisible`.
    public var isInvisible: Bool?
    /// `kSecAttrIsNegative`.
    public var isNegative: Bool?
    /// `kSecAttrSynchronizable`.
    public var synchronizable: Bool?
    /// `kSecAttrAccessible`: re-encrypts the items under this class. Not together with ``accessControl``.
    public var accessibility: Accessibility?
    /// `kSecAttrAccessControl`: a new access control (and protection class).
    public var accessControl: AccessControl?
    /// `kSecAttrCreationDate`: Apple lets an update set the creation date.
    public var creationDate: Date?

    /// Changes; set the properties to change.
    public init(
        value: Data? = nil, service: String? = nil, account: String? = nil, accessGroup: String? = nil,
        label: String? = nil, comment: String? = nil, kind: String? = nil, generic: Data? = nil,
        accessibility: Accessibility? = nil
    ) {
        self.value = value
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.label = label
        self.comment = comment
        self.kind = kind
        self.generic = generic
        self.accessibility = accessibility
    }
}

extension GenericPasswordChanges: KeychainItemChanges {
    var entries: AttributeEntries {
        var entries = AttributeEntries()
        entries.set(QueryKey.valueData, value)
        entries.set(QueryKey.service, service)
        entries.set(QueryKey.account, account)
        entries.set(QueryKey.accessGroup, accessGroup)
        entries.set(QueryKey.label, label)
        entries.set(QueryKey.comment, comment)
        entries.set(QueryKey.description, kind)
        entries.set(QueryKey.generic, generic)
        entries.set(QueryKey.creator, creator)
        entries.set(QueryKey.type, type)
        entries.set(QueryKey.isInvisible, isInvisible)
        entries.set(QueryKey.isNegative, isNegative)
        entries.set(QueryKey.synchronizable, synchronizable)
        entries.set(QueryKey.accessible, accessibility)
        entries.set(QueryKey.accessControl, accessControl)
        entries.set(QueryKey.creationDate, creationDate)
        return entries
    }
}
