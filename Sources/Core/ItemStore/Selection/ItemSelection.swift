import Foundation
import KeychainModel

/// Which rows of one class to select: every filter is byte-exact equality on a blind index,
/// and all filters are ANDed (the SQL shape of Apple's matcher, reference §5.5).
///
/// Attribute codes name columns (`acct`, `agrp`, …); a code with no column in the class's table makes
/// ``ItemReader/select(_:)`` throw ``ItemStoreError/unknownAttribute(code:itemClass:)``.
/// Values are the engine's canonical match bytes; the store only HMACs them.
public struct ItemSelection: Sendable, Hashable {
    /// The class, i.e. the table.
    public var itemClass: ItemClass
    /// Attribute code → canonical bytes the attribute must equal.
    public var equal: [String: Data]
    /// Attribute code → canonical bytes of which the attribute must equal one (e.g. `agrp IN (…)`).
    /// An empty list matches nothing.
    public var anyOf: [String: [Data]]
    /// The 16-byte persistent reference the row must have, if any.
    public var persistentRef: Data?
    /// The uniqueness bytes the row must have (the same bytes as ``NewItem/uniqueKey``), if any;
    /// finds the row that an insert reported as ``ItemStoreError/duplicateItem``.
    public var uniqueKey: Data?
    /// The row id the row must have, if any.
    public var rowID: Int64?
    /// At most this many rows (in row-id order); `nil` = all. Must not be negative.
    public var limit: Int?

    /// Creates a selection; with only a class it selects every row of the class.
    public init(
        itemClass: ItemClass,
        equal: [String: Data] = [:],
        anyOf: [String: [Data]] = [:],
        persistentRef: Data? = nil,
        uniqueKey: Data? = nil,
        rowID: Int64? = nil,
        limit: Int? = nil
    ) {
        self.itemClass = itemClass
        self.equal = equal
        self.anyOf = anyOf
        self.persistentRef = persistentRef
        self.uniqueKey = uniqueKey
        self.rowID = rowID
        self.limit = limit
    }
}
