/// How many items `SecItemCopyMatching` returns (`kSecMatchLimit`, §2.2–§2.3).
public enum MatchLimit: Sendable, Hashable {
    /// `kSecMatchLimitOne` (or the number 1): the first match, as a single value rather than an array.
    case one
    /// `kSecMatchLimitAll` (or a negative number, such as `kSecMatchUnlimited` = -1): every match, as an array.
    case all
    /// At most this many matches, as an array.
    case count(Int)

    /// The maximum number of items, or nil for no limit.
    public var maximum: Int? {
        switch self {
        case .one: 1
        case .all: nil
        case .count(let limit): limit
        }
    }

    /// Whether the result is an array (every limit but one).
    public var returnsArray: Bool { self != .one }

    /// Apple's interpretation of a number: 1 is `.one`, a negative number is unlimited (SQLite ignores a
    /// negative `LIMIT`), anything else is that count.
    static func fromNumber(_ number: Int64) -> MatchLimit {
        if number == 1 { return .one }
        if number < 0 { return .all }
        return .count(Int(clamping: number))
    }
}
