import Foundation
import Query

/// A query or attribute dictionary under construction, keyed by Apple's key strings.
///
/// Each typed value is written as the CF type Apple's API takes for it; nil values are left out.
/// Nothing here checks a rule: the keychain parses the finished dictionary.
struct AttributeEntries: Sendable, Hashable {
    private(set) var values: [String: KeychainValue] = [:]

    init() {}

    init(_ values: [String: KeychainValue]) { self.values = values }

    subscript(key: String) -> KeychainValue? {
        get { values[key] }
        set { values[key] = newValue }
    }

    mutating func set(_ key: String, _ value: String?) {
        if let value { values[key] = .string(value) }
    }

    mutating func set(_ key: String, _ value: Data?) {
        if let value { values[key] = .data(value) }
    }

    mutating func set(_ key: String, _ value: Bool?) {
        if let value { values[key] = .bool(value) }
    }

    mutating func set(_ key: String, _ value: UInt32?) {
        if let value { values[key] = .number(Int64(value)) }
    }

    mutating func set(_ key: String, _ value: Int?) {
        if let value { values[key] = .number(Int64(value)) }
    }

    mutating func set(_ key: String, _ value: Date?) {
        if let value { values[key] = .date(value) }
    }

    mutating func set(_ key: String, _ value: Accessibility?) {
        if let value { values[key] = .string(value.rawValue) }
    }

    mutating func set(_ key: String, _ value: AccessControl?) {
        if let value { values[key] = .accessControl(value) }
    }

    mutating func set(_ key: String, _ value: InternetProtocol?) {
        if let value { values[key] = .string(value.rawValue) }
    }

    mutating func set(_ key: String, _ value: AuthenticationType?) {
        if let value { values[key] = .string(value.rawValue) }
    }

    /// Adds every entry of `other`, replacing entries with the same key.
    mutating func merge(_ other: AttributeEntries) {
        values.merge(other.values) { _, new in new }
    }

    /// The entries whose keys satisfy `isIncluded`.
    func filter(_ isIncluded: (String) -> Bool) -> AttributeEntries {
        AttributeEntries(values.filter { isIncluded($0.key) })
    }

    /// The entries as the dictionary a ``KeychainClient`` takes.
    var dictionary: QueryDictionary {
        QueryDictionary(Dictionary(uniqueKeysWithValues: values.map { (KeychainValue.string($0.key), $0.value) }))
    }
}
