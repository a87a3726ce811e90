/// OpenSSH's `match_pattern` for a destination constraint's user: `*` matches any run of characters (none too),
/// `?` any one character, everything else itself; the whole name must match.
enum UserPattern {
    /// Whether `name` matches `pattern`.
    static func matches(_ name: String, pattern: String) -> Bool {
        let name = Array(name.utf8)
        let pattern = Array(pattern.utf8)
        // The classic greedy match with one backtracking point: the last `*` seen.
        var nameIndex = 0
        var patternIndex = 0
        var starIndex: Int?
        var starMatch = 0
        while nameIndex < name.count {
            if patternIndex < pattern.count, pattern[patternIndex] == UInt8(ascii: "?") || pattern[patternIndex] == name[nameIndex] {
                nameIndex += 1
                patternIndex += 1
            } else if patternIndex < pattern.count, pattern[patternIndex] == UInt8(ascii: "*") {
                starIndex = patternIndex
                starMatch = nameIndex
                patternIndex += 1
            } else if let star = starIndex {
                patternIndex = star + 1
                starMatch += 1
                nameIndex = starMatch
            } else {
                return false
            }
        }
        while patternIndex < pattern.count, pattern[patternIndex] == UInt8(ascii: "*") { patternIndex += 1 }
        return patternIndex == pattern.count
    }
}
