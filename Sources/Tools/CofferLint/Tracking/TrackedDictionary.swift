import SwiftSyntax

/// A query dictionary as far as the source shows it: each key Apple's constants name, with its value when that is a
/// constant or a literal, and where the entry was written.
struct TrackedDictionary: Sendable {
    /// An entry's value, when the source makes it known.
    enum Value: Sendable, Equatable {
        /// An Apple constant's string (`kSecClassGenericPassword` → `genp`) or a string literal.
        case string(String)
        /// A Boolean literal.
        case bool(Bool)
        /// Anything else: a variable, a call, data.
        case unknown
    }

    struct Entry: Sendable {
        /// The key's string (`svce`) and the constant that named it (`kSecAttrService`).
        let code: String
        let constantName: String
        let value: Value
        /// The constant's name when the value was one (`kSecAttrAccessibleAlways`).
        let valueName: String?
        /// Where the key was written.
        let position: AbsolutePosition
    }

    private(set) var entries: [Entry] = []

    /// Sets `entry`, replacing an earlier one with the same key, as assigning a subscript does.
    mutating func set(_ entry: Entry) {
        entries.removeAll { $0.code == entry.code }
        entries.append(entry)
    }

    /// Adds every entry of `other`, its entries winning (`merge` with the new value kept, or `+` of literals).
    mutating func merge(_ other: TrackedDictionary) {
        for entry in other.entries { set(entry) }
    }

    /// The entry for `code`, or nil.
    func entry(_ code: String) -> Entry? { entries.first { $0.code == code } }

    /// The item class the dictionary names, when `kSecClass` is a known constant.
    var itemClassCode: String? {
        if case .string(let code)? = entry("class")?.value { return code }
        return nil
    }
}
