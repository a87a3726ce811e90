/// A query dictionary as far as the source shows it: each key Apple's constants name, with what is known of its
/// value and where the entry was written.
struct TrackedDictionary: Sendable {
    struct Entry: Sendable {
        /// The key's string (`svce`) and the constant that named it (`kSecAttrService`).
        let code: String
        let constantName: String
        let value: TrackedValue
        /// The constant's name when the value was one (`kSecAttrAccessibleAlways`).
        let valueName: String?
        /// Where the key was written.
        let point: SourcePoint
        /// Where the constant that named the value was written, and the edit that removes the whole entry when it
        /// is a literal's element.
        let valueNameSpan: SourceSpan?
        let removal: TextEdit?
    }

    private(set) var entries: [Entry] = []
    /// The parameter of the enclosing function the dictionary started as (`var query = base` for a parameter
    /// `base`), so a helper that passes its parameter on to a SecItem call is known as a wrapper.
    var parameterIndex: Int?
    /// The variable the dictionary was passed as, when it was one.
    var variableName: String?

    /// Sets `entry`, replacing an earlier one with the same key, as assigning a subscript does.
    mutating func set(_ entry: Entry) {
        entries.removeAll { $0.code == entry.code }
        entries.append(entry)
    }

    /// Adds every entry of `other`, its entries winning (`merge` with the new value kept, or `+` of literals).
    mutating func merge(_ other: TrackedDictionary) {
        for entry in other.entries { set(entry) }
    }

    /// Removes the entry for `code` (`query[key] = nil`, `removeValue(forKey:)`).
    mutating func remove(_ code: String) { entries.removeAll { $0.code == code } }

    /// The entry for `code`, or nil.
    func entry(_ code: String) -> Entry? { entries.first { $0.code == code } }

    /// The item class the dictionary names, when `kSecClass` is a known constant.
    var itemClassCode: String? { entry("class")?.value.string }

    /// Whether `code` is present with the value true.
    func isTrue(_ code: String) -> Bool {
        guard let value = entry(code)?.value else { return false }
        switch value {
        case .bool(let flag): return flag
        case .string(let text): return text == "1" || text == "true"
        default: return false
        }
    }
}

/// A stretch of source text: from `start` up to, not including, `end`.
struct SourceSpan: Sendable, Hashable {
    let start: SourcePoint
    let end: SourcePoint
}

/// A replacement of a stretch of source text.
struct TextEdit: Sendable, Hashable {
    let span: SourceSpan
    let replacement: String
}
