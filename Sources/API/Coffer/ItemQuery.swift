import Foundation
import Query

/// Which items of a class an operation applies to: every attribute that is set must match exactly.
///
/// A query has the item class's attributes, under the item's property names: set a `GenericPassword`
/// query's `service` to find the items whose ``GenericPassword/service`` is that value. Matching is
/// Apple's: exact, case-sensitive equality, no wildcards. An empty query matches every item of the class
/// in the caller's access groups.
///
/// ```swift
/// var query = GenericPasswordQuery(service: "com.example.api")
/// query.label = "Production"
/// let items = try await keychain.items(matching: query)
/// ```
///
/// Some filters are for reads only, as in Apple's API: ``limit`` makes `update` and `delete` fail with
/// `errSecParam` (-50); a query by ``persistentReference`` must carry no attribute filter when reading
/// (-50), though update and delete accept extra filters.
@dynamicMemberLookup
public struct ItemQuery<Item: KeychainItem>: Sendable, Hashable {
    /// The filters, match keys and persistent reference, by Apple's key.
    var entries = AttributeEntries<Item>()
    /// `kSecMatchLimit` for multi-item reads: at most this many items; nil for all. Reads only.
    public var limit: Int?
    /// `kSecUseAuthenticationContext`: the context whose proof and application password the call uses
    /// (``Keychain/authenticate(_:policy:reason:reuseDuration:)``).
    public var authenticationContext: AuthenticationContext?

    /// A query that matches every item of the class, synchronizable or not.
    public init() {
        synchronizable = .any
    }

    /// A query for the item a persistent reference names.
    public init(persistentReference: PersistentReference) {
        self.init()
        self.persistentReference = persistentReference
    }

    /// The attribute the item's property `keyPath` holds: only items with this value match; nil matches any.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Item, Value>) -> Value? {
        get { entries[property: keyPath] as? Value }
        set { entries[property: keyPath] = newValue }
    }

    /// The attribute the item's optional property `keyPath` holds: only items with this value match; nil
    /// matches any.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Item, Value?>) -> Value? {
        get { entries[property: keyPath] as? Value }
        set { entries[property: keyPath] = newValue }
    }

    /// `kSecAttrSynchronizable`: which items to consider; ``SynchronizableMatch/any`` by default.
    public var synchronizable: SynchronizableMatch {
        get { SynchronizableMatch(queryValue: entries[QueryKey.synchronizable]) }
        set { entries[QueryKey.synchronizable] = newValue.queryValue }
    }

    /// `kSecValuePersistentRef`: exactly the item this reference names.
    public var persistentReference: PersistentReference? {
        get { entries[attribute: QueryKey.valuePersistentRef] as? PersistentReference }
        set { entries[attribute: QueryKey.valuePersistentRef] = newValue }
    }

    /// `kSecAttrCreationDate`: only items created at exactly this moment.
    public var creationDate: Date? {
        get { entries[attribute: QueryKey.creationDate] as? Date }
        set { entries[attribute: QueryKey.creationDate] = newValue }
    }

    /// `kSecAttrModificationDate`: only items last changed at exactly this moment.
    public var modificationDate: Date? {
        get { entries[attribute: QueryKey.modificationDate] as? Date }
        set { entries[attribute: QueryKey.modificationDate] = newValue }
    }

    /// Not a filter: a query cannot match a secret.
    @available(*, unavailable, message: "a query cannot match an item's secret")
    public var value: Item.Value? {
        get { nil }
        set {}
    }

    /// Not a filter: Apple's searches ignore `kSecAttrAccessControl` (§6.3); filter by `accessibility`.
    @available(*, unavailable, message: "kSecAttrAccessControl is not a search filter; use accessibility")
    public var accessControl: AccessControl? {
        get { nil }
        set {}
    }
}

extension ItemQuery {
    /// The `SecItemCopyMatching` dictionary: the filters, the class, and what to return.
    func searchDictionary(withSecret: Bool, limit: KeychainValue) -> QueryDictionary {
        var dictionary = entries.dictionary
        dictionary[QueryKey.itemClass] = .string(Item.schema.itemClass.rawValue)
        dictionary[QueryKey.returnAttributes] = .bool(true)
        dictionary[QueryKey.returnPersistentRef] = .bool(true)
        if withSecret { dictionary[QueryKey.returnData] = .bool(true) }
        dictionary[QueryKey.matchLimit] = limit
        dictionary[QueryKey.useAuthenticationContext] = authenticationContext?.queryValue
        return dictionary
    }

    /// The query for update and delete: the filters, plus a limit when the caller set one (which the
    /// keychain refuses, as Apple's does).
    var selectionDictionary: QueryDictionary {
        var dictionary = entries.dictionary
        dictionary[QueryKey.itemClass] = .string(Item.schema.itemClass.rawValue)
        if let limit { dictionary[QueryKey.matchLimit] = .number(Int64(limit)) }
        dictionary[QueryKey.useAuthenticationContext] = authenticationContext?.queryValue
        return dictionary
    }

    /// `kSecMatchLimit` for multi-item reads: the caller's limit, or all.
    var limitValue: KeychainValue {
        limit.map { .number(Int64($0)) } ?? .string(QueryConstant.matchLimitAll)
    }
}
