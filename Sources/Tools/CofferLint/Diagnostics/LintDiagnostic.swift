/// One finding: where, which rule, what is wrong there, and a safe change when there is one.
public struct LintDiagnostic: Sendable, Hashable {
    /// Where the expression at fault is.
    public let point: SourcePoint
    /// The rule.
    public let rule: LintRule
    /// What is wrong, naming Apple's constants.
    public let message: String
    /// The change that fixes it, when one is safe.
    public let fixIt: FixIt?

    /// A finding.
    public init(point: SourcePoint, rule: LintRule, message: String, fixIt: FixIt? = nil) {
        self.point = point
        self.rule = rule
        self.message = message
        self.fixIt = fixIt
    }

    /// The file, as it was named.
    public var path: String { point.path }
    /// 1-based line and column.
    public var line: Int { point.line }
    public var column: Int { point.column }

    /// The compiler's form, which Xcode, VS Code and CI annotations read:
    /// `file:line:col: warning: [rule] message`.
    public var compilerStyle: String { "\(path):\(line):\(column): \(rule.severity.rawValue): [\(rule.rawValue)] \(message)" }
}
