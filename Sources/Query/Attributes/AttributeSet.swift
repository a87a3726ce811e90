/// An ordered map from attribute code to value: an item's attributes, a set of filters, or a set of changes.
///
/// Iteration follows insertion order (replacing a value keeps its place). Equality ignores order.
public struct AttributeSet: Sendable, Hashable, Sequence {
    private var values: [String: AttributeValue] = [:]
    private var order: [String] = []

    /// An empty set.
    public init() {}

    /// An empty set with room for `capacity` attributes.
    init(reservingCapacity capacity: Int) {
        values.reserveCapacity(capacity)
        order.reserveCapacity(capacity)
    }

    /// A set with the given entries in order; a repeated code keeps its last value.
    public init(_ entries: [(String, AttributeValue)]) {
        for (code, value) in entries { self[code] = value }
    }

    /// The value of an attribute; assigning nil removes it.
    public subscript(code: String) -> AttributeValue? {
        get { values[code] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: code) == nil { order.append(code) }
            } else if values.removeValue(forKey: code) != nil {
                order.removeAll { $0 == code }
            }
        }
    }

    /// The attribute codes, in order.
    public var codes: [String] { order }

    /// The number of attributes.
    public var count: Int { order.count }

    /// Whether there are no attributes.
    public var isEmpty: Bool { order.isEmpty }

    /// Whether the set has a value for `code`.
    public func contains(_ code: String) -> Bool { values[code] != nil }

    /// Removes and returns the value of `code`.
    @discardableResult
    public mutating func removeValue(forCode code: String) -> AttributeValue? {
        let old = values[code]
        self[code] = nil
        return old
    }

    /// This set with `other`'s values added; `other` wins where both have a code.
    public func merging(_ other: AttributeSet) -> AttributeSet {
        var merged = self
        for (code, value) in other { merged[code] = value }
        return merged
    }

    /// The entries in order.
    public func makeIterator() -> IndexingIterator<[(code: String, value: AttributeValue)]> {
        order.map { (code: $0, value: values[$0]!) }.makeIterator()
    }

    /// Whether both sets hold the same codes with the same values, in any order.
    public static func == (lhs: AttributeSet, rhs: AttributeSet) -> Bool { lhs.values == rhs.values }

    /// Hashes the entries, independent of order.
    public func hash(into hasher: inout Hasher) { hasher.combine(values) }
}
