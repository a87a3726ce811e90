import Foundation
import Query

/// New values for the internet passwords an update matches: every property that is set is written,
/// the others keep their stored values.
///
/// Changing a primary-key attribute (server, account, security domain, protocol, authentication type,
/// port, path, access group, synchronizable) can collide with another item: `errSecDuplicateItem`
/// (-25299), and nothing is changed.
public struct InternetPasswordChanges: Sendable, Hashable {
    /// A new secret (`kSecValueData`).
    public var value: Data?
    /// `kSecAttrServer`.
    public var server: String?
    /// `kSecAttrAccount`.
    public var account: String?
    /// `kSecAttrSecurityDomain`.
    public var securityDomain: String?
    /// `kSecAttrProtocol`.
    public var `protocol`: InternetProtocol?
    /// `kSecAttrAuthenticationType`.
    public var authenticationType: AuthenticationType?
    /// `kSecAttrPort`.
    public var port: Int?
    /// `kSecAttrPath`.
    public var path: String?
    /// `kSecAttrAccessGroup`: moves the items to this group (it must be one of the caller's).
    public var accessGroup: String?
    /// `kSecAttrLabel`.
    public var label: String?
    /// `kSecAttrComment`.
    public var comment: String?
    /// `kSecAttrDescription`.
    public var kind: String?
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
        value: Data? = nil, server: String? = nil, account: String? = nil, protocol: InternetProtocol? = nil,
        port: Int? = nil, path: String? = nil, label: String? = nil, accessibility: Accessibility? = nil
    ) {
        self.value = value
        self.server = server
        self.account = account
        self.protocol = `protocol`
        self.port = port
        self.path = path
        self.label = label
        self.accessibility = accessibility
    }
}

extension InternetPasswordChanges: KeychainItemChanges {
    var entries: AttributeEntries {
        var entries = AttributeEntries()
        entries.set(QueryKey.valueData, value)
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
        entries.set(QueryKey.creationDate, creationDate)
        return entries
    }
}
