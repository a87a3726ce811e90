import Query

/// Which items a query considers with respect to `kSecAttrSynchronizable`.
///
/// Coffer's typed queries default to ``any``: a query finds an item whether or not it is
/// synchronizable. (Apple's dictionary API instead searches only non-synchronizable items when the
/// key is absent; use ``no`` for that behaviour.)
public enum SynchronizableMatch: Sendable, Hashable, CaseIterable {
    /// Synchronizable and non-synchronizable items alike (`kSecAttrSynchronizableAny`).
    case any
    /// Only synchronizable items (`kSecAttrSynchronizable` = true).
    case yes
    /// Only items that are not synchronizable (`kSecAttrSynchronizable` = false).
    case no

    /// The match a query value for `kSecAttrSynchronizable` stands for; ``any`` when there is none.
    init(queryValue: KeychainValue?) {
        switch queryValue {
        case .bool(true)?: self = .yes
        case .bool(false)?: self = .no
        default: self = .any
        }
    }

    /// The query value for `kSecAttrSynchronizable`.
    var queryValue: KeychainValue {
        switch self {
        case .any: .string(QueryConstant.synchronizableAny)
        case .yes: .bool(true)
        case .no: .bool(false)
        }
    }
}
