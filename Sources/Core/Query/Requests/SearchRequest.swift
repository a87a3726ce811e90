import Foundation
import KeychainModel

/// A validated search: `SecItemCopyMatching`, or the selection part of `SecItemUpdate`/`SecItemDelete`.
public struct SearchRequest: Sendable, Hashable {
    /// The item class.
    public var itemClass: ItemClass
    /// Equality filters (§10.1) on attributes other than `agrp` and `sync`, coerced like stored values.
    /// Without a `tomb` filter only live items (`tomb = 0`) match. `musr` is never here: the engine always
    /// restricts to the caller's own view.
    public var filters: AttributeSet
    /// `kSecAttrAccessGroup` when given: the search is limited to that group (after the engine checks that
    /// the caller has it, G13). Nil means every group of the caller.
    public var accessGroup: String?
    /// Which items the `sync` flag admits (§2.5).
    public var synchronizable: SynchronizableFilter
    /// `kSecValuePersistentRef`: selects exactly that item.
    public var persistentRef: PersistentReference?
    /// `kSecMatchHostOrSubdomainOfHost` (internet passwords): `srvr` equals the host or ends with `.host`.
    public var hostOrSubdomainOf: String?
    /// How many items to return (CopyMatching default `.one`; update and delete `.all`).
    public var limit: MatchLimit
    /// What to return (empty for update and delete).
    public var returns: ReturnOptions
    /// Authentication settings.
    public var authentication: AuthenticationOptions
    /// `kSecUseTombstones` (SPI) for update and delete: force (`true`) or suppress (`false`) tombstones.
    public var useTombstones: Bool?

    /// Whether the call may prompt, fail, or skip items that need authentication.
    public var authenticationUI: AuthenticationUI { authentication.ui }

    /// Whether the search asks for tombstones explicitly (a `tomb` filter); otherwise only live items match.
    public var includesTombstoneFilter: Bool { filters.contains(QueryKey.tombstone) }
}

extension SearchRequest {
    /// Whether the results carry the items' data: `kSecReturnData`, or `kSecReturnRef` on a class whose
    /// reference is built from its data (a key's `SecKey`), for which Apple's daemon reads the data too.
    public var needsData: Bool {
        returns.contains(.data) || (returns.contains(.ref) && ItemReference.exists(for: itemClass))
    }
}
