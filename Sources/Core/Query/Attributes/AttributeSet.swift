/// An ordered map from attribute code to value: an item's attributes, a set of filters, or a set of changes.
///
/// Iteration follows insertion order (replacing a value keeps its place). Equality ignores order.
///
/// The entries live in one array and lookups scan it: a set holds at most a few dozen short codes, and
/// comparing small strings costs less than hashing them, which matters on the find path (every found
/// item's attributes are decoded into a set and checked against the query).
public struct AttributeSet: Sendable, Hashable, Sequence {
    private var entries: [(code: String, value: AttributeValue)] = []

    /// An empty set.
    public init() {}

    /// An empty set with room for `capacity` attributes.
    init(reservingCapacity capacity: Int) {
        entries.reserveCapacity(capacity)
    }

    /// A set with the given entries in order; a repeated code keeps its last value.
    public init(_ entries: [(String, AttributeValue)]) {
        for (code, value) in entries { self[code] = value }
    }

    /// The value of an attribute; assigning nil removes it.
    public subscript(code: String) -> AttributeValue? {
        get { position(of: code).map { entries[$0].value } }
        set {
            switch (position(of: code), newValue) {
            case (let index?, let value?): entries[index].value = value
            case (nil, let value?): entries.append((code, value))
            case (let index?, nil): entries.remove(at: index)
            case (nil, nil): break
            }
        }
    }

    /// The attribute codes, in order.
    public var codes: [String] { entries.map(\.code) }

    /// The number of attributes.
    public var count: Int { entries.count }

    /// Whether there are no attributes.
    public var isEmpty: Bool { entries.isEmpty }

    /// Whether the set has a value for `code`.
    public func contains(_ code: String) -> Bool { position(of: code) != nil }

    /// Removes and returns the value of `code`.
    @discardableResult
    public mutating func removeValue(forCode code: String) -> AttributeValue? {
        guard let index = position(of: code) else { return nil }
        return entries.remove(at: index).value
    }

    /// This set with `other`'s values added; `other` wins where both have a code.
    public func merging(_ other: AttributeSet) -> AttributeSet {
        var merged = self
        for (code, value) in other { merged[code] = value }
        return merged
    }

    /// Appends an entry whose code the caller knows is not in the set yet.
    mutating func appendNew(_ code: String, _ value: AttributeValue) {
        entries.append((code, value))
    }

    /// The entries in order.
    public func makeIterator() -> IndexingIterator<[(code: String, value: AttributeValue)]> {
        entries.makeIterator()
    }

    /// Whether both sets hold the same codes with the same values, in any order.
    public static func == (lhs: AttributeSet, rhs: AttributeSet) -> Bool {
        lhs.count == rhs.count && lhs.entries.allSatisfy { rhs[$0.code] == $0.value }
    }

    /// Hashes the entries, independent of order (as `Dictionary` does: a commutative sum of per-entry hashes).
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for entry in entries {
            var entryHasher = Hasher()
            entryHasher.combine(entry.code)
            entryHasher.combine(entry.value)
            combined &+= entryHasher.finalize()
        }
        hasher.combine(entries.count)
        hasher.combine(combined)
    }

    private func position(of code: String) -> Int? {
        entries.firstIndex { $0.code == code }
    }
}
