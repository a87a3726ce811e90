import Foundation
import Query

/// Which internet passwords an operation applies to: every property that is set must match exactly.
///
/// Matching is Apple's: exact, case-sensitive equality, no wildcards. ``hostOrSubdomainOf`` adds
/// Apple's one inexact match: the server equals the host or ends with `.host`.
///
/// Some filters are for reads only, as in Apple's API: ``limit`` and ``hostOrSubdomainOf`` make
/// `update` and `delete` fail with `errSecParam` (-50); a query by ``persistentReference`` must carry
/// no attribute filter when reading (-50), though update and delete accept extra filters.
public struct InternetPasswordQuery: Sendable, Hashable {
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
    /// `kSecAttrAccessGroup`: search only this group (it must be one of the caller's, else
    /// `errSecMissingEntitlement`, -34018); nil searches all of the caller's groups.
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
    /// `kSecAttrAccessible`: only items of this protection class.
    public var accessibility: Accessibility?
    /// `kSecAttrCreationDate`: only items created at exactly this moment.
    public var creationDate: Date?
    /// `kSecAttrModificationDate`: only items last changed at exactly this moment.
    public var modificationDate: Date?
    /// `kSecMatchHostOrSubdomainOfHost`: only items whose server is this host or a subdomain of it. Reads only.
    public var hostOrSubdomainOf: String?
    /// `kSecAttrSynchronizable`: which items to consider; ``SynchronizableMatch/any`` by default.
    public var synchronizable: SynchronizableMatch
    /// `kSecValuePersistentRef`: exactly the item this reference names.
    public var persistentReference: PersistentReference?
    /// `kSecMatchLimit` for multi-item reads: at most this many items; nil for all. Reads only.
    public var limit: Int?

    /// A query on server, account and protocol (each may be nil to match any).
    public init(
        server: String? = nil, account: String? = nil, protocol: InternetProtocol? = nil,
        accessGroup: String? = nil, synchronizable: SynchronizableMatch = .any
    ) {
        self.server = server
        self.account = account
        self.protocol = `protocol`
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
    }

    /// A query for the item a persistent reference names.
    public init(persistentReference: PersistentReference) {
        self.init()
        self.persistentReference = persistentReference
    }
}

extension InternetPasswordQuery: KeychainItemQuery {
    typealias Item = InternetPassword

    var entries: AttributeEntries {
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
        entries.set(QueryKey.accessible, accessibility)
        entries.set(QueryKey.creationDate, creationDate)
        entries.set(QueryKey.modificationDate, modificationDate)
        entries.set(QueryKey.matchHostOrSubdomainOfHost, hostOrSubdomainOf)
        entries[QueryKey.synchronizable] = synchronizable.queryValue
        entries.set(QueryKey.valuePersistentRef, persistentReference?.data)
        return entries
    }
}
