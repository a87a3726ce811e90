/// One finding: where, which rule, and what is wrong there.
public struct LintDiagnostic: Sendable, Hashable {
    /// The file, as it was named.
    public let path: String
    /// 1-based line and column of the expression at fault.
    public let line: Int
    public let column: Int
    /// The rule.
    public let rule: LintRule
    /// What is wrong, naming Apple's constants.
    public let message: String

    /// A finding.
    public init(path: String, line: Int, column: Int, rule: LintRule, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.rule = rule
        self.message = message
    }

    /// The compiler's form, which Xcode, VS Code and CI annotations read:
    /// `file:line:col: warning: [rule] message`.
    public var compilerStyle: String { "\(path):\(line):\(column): \(rule.severity.rawValue): [\(rule.rawValue)] \(message)" }
}
