/// A change that removes a pitfall without changing what the code means otherwise: replace the text from `start`
/// up to (not including) `end` with `replacement`.
public struct FixIt: Sendable, Hashable {
    /// What the change does, in a few words ("remove kSecMatchLimit").
    public let summary: String
    public let start: SourcePoint
    public let end: SourcePoint
    public let replacement: String

    /// A change.
    public init(summary: String, start: SourcePoint, end: SourcePoint, replacement: String) {
        self.summary = summary
        self.start = start
        self.end = end
        self.replacement = replacement
    }
}
