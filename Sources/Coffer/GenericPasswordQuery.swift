import Foundation
import Query

/// Which generic passwords an operation applies to: every property that is set must match exactly.
///
/// Matching is Apple's: exact, case-sensitive equality, no wildcards. An empty query matches every
/// generic password in the caller's access groups.
///
/// ```swift
/// var query = GenericPasswordQuery(service: "com.example.api")
/// query.label = "Production"
/// let items = try await keychain.items(matching: query)
/// ```
///
/// Some filters are for reads only, as in Apple's API: ``limit`` makes `update` and `delete` fail
/// with `errSecParam` (-50); a query by ``persistentReference`` must carry no attribute filter when
/// reading (-50), though update and delete accept extra filters.
public struct GenericPasswordQuery: Sendable, Hashable {
    /// `kSecAttrService`.
    public var service: String?
    /// `kSecAttrAccount`.
    public var account: String?
    /// `kSecAttrAccessGroup`: search only this group (it must be one of the caller's, else
    /// `errSecMissingEntitlement`, -34018); nil searches all of the caller's groups.
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
    /// `kSecAttrAccessible`: only items of this protection class.
    public var accessibility: Accessibility?
    /// `kSecAttrCreationDate`: only items created at exactly this moment.
    public var creationDate: Date?
    /// `kSecAttrModificationDate`: only items last changed at exactly this moment.
    public var modificationDate: Date?
    /// `kSecAttrSynchronizable`: which items to consider; ``SynchronizableMatch/any`` by default.
    public var synchronizable: SynchronizableMatch
    /// `kSecValuePersistentRef`: exactly the item this reference names.
    public var persistentReference: PersistentReference?
    /// `kSecMatchLimit` for multi-item reads: at most this many items; nil for all. Reads only.
    public var limit: Int?

    /// A query on service and account (either may be nil to match any).
    public init(
        service: String? = nil, account: String? = nil, accessGroup: String? = nil,
        synchronizable: SynchronizableMatch = .any
    ) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
    }

    /// A query for the item a persistent reference names.
    public init(persistentReference: PersistentReference) {
        self.init()
        self.persistentReference = persistentReference
    }
}

extension GenericPasswordQuery: KeychainItemQuery {
    typealias Item = GenericPassword

    var entries: AttributeEntries {
        var entries = AttributeEntries()
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
        entries.set(QueryKey.accessible, accessibility)
        entries.set(QueryKey.creationDate, creationDate)
        entries.set(QueryKey.modificationDate, modificationDate)
        entries[QueryKey.synchronizable] = synchronizable.queryValue
        entries.set(QueryKey.valuePersistentRef, persistentReference?.data)
        return entries
    }
}
