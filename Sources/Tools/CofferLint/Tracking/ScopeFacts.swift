import SwiftSyntax

/// What a function, closure or file does beside its SecItem calls, for the rules that judge a sequence of calls.
struct ScopeFacts: Sendable {
    /// Where each name is read, so a status kept in a variable and never read counts as ignored.
    var references: [String: [AbsolutePosition]] = [:]
    /// Variables read as an array (`result as? [[String: Any]]`, `as! NSArray`), with where.
    var arrayReads: [String: [(position: AbsolutePosition, point: SourcePoint)]] = [:]

    /// Whether `name` is read after `position`.
    func isRead(_ name: String, after position: AbsolutePosition) -> Bool {
        references[name, default: []].contains { $0 > position }
    }
}
