import Foundation

/// A query or attribute dictionary as a caller passes it to `SecItem…`: CF keys to CF values.
///
/// Keys are normally strings, but any value can be a key so that the parser can answer non-string keys
/// with Apple's status (a number key → -25303, anything else → -50).
public struct QueryDictionary: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The entries.
    public var entries: [KeychainValue: KeychainValue]

    /// A dictionary with the given entries.
    public init(_ entries: [KeychainValue: KeychainValue] = [:]) { self.entries = entries }

    /// A dictionary from a literal; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (KeychainValue, KeychainValue)...) {
        entries = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    /// A dictionary from Swift/Foundation values, such as `[String: Any]` or `[CFString: Any]` bridged.
    public init(bridging dictionary: [AnyHashable: Any]) {
        var converted: [KeychainValue: KeychainValue] = [:]
        for (key, value) in dictionary {
            converted[KeychainValue(bridging: key.base)] = KeychainValue(bridging: value)
        }
        entries = converted
    }

    /// A dictionary from an `NSDictionary`.
    public init(bridging dictionary: NSDictionary) {
        var converted: [KeychainValue: KeychainValue] = [:]
        for (key, value) in dictionary {
            converted[KeychainValue(bridging: key)] = KeychainValue(bridging: value)
        }
        entries = converted
    }

    /// The value for a string key.
    public subscript(key: String) -> KeychainValue? {
        get { entries[.string(key)] }
        set { entries[.string(key)] = newValue }
    }

    /// The number of entries.
    public var count: Int { entries.count }

    /// The entries with string keys, sorted by key, so that checks visit them in a fixed order.
    var sortedStringEntries: [(key: String, value: KeychainValue)] {
        var found: [(key: String, value: KeychainValue)] = []
        found.reserveCapacity(entries.count)
        for (key, value) in entries {
            if case .string(let name) = key { found.append((name, value)) }
        }
        found.sort { $0.key < $1.key }
        return found
    }

    /// The keys that are not strings.
    var nonStringKeys: [KeychainValue] { entries.keys.filter { $0.stringValue == nil } }
}
