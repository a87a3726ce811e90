/// A place in a source file, as people and tools name it: the file, then a 1-based line and column.
public struct SourcePoint: Sendable, Hashable, Comparable {
    /// The file, as it was named.
    public let path: String
    public let line: Int
    public let column: Int

    /// A place.
    public init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourcePoint, rhs: SourcePoint) -> Bool {
        (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
    }
}
