import SwiftOperators
import SwiftParser
import SwiftSyntax

/// Lints Swift source for the pitfalls of Apple's SecItem calls: each query dictionary followed from where it is built
/// to the call that uses it, and judged with the keychain reference's rules (Query's schema of each item class).
public enum CofferLinter {
    /// The findings in `source`, reported as from `path`, in source order, less those its disable comments silence.
    public static func lint(source: String, path: String) -> [LintDiagnostic] {
        let parsed = Parser.parse(source: source)
        // Casts and assignments come out of the parser as flat sequences: fold them with Swift's own operators, so
        // `kSecClass as String` is a cast and `query[key] = value` an assignment. What does not fold stays as it was.
        let tree = OperatorTable.standardOperators.foldAll(parsed) { _ in }.as(SourceFileSyntax.self) ?? parsed
        let scanner = DictionaryScanner()
        scanner.walk(tree)
        let converter = SourceLocationConverter(fileName: path, tree: tree)
        let disabled = DisableComments(source: source)
        return scanner.calls.flatMap(CallRules.check).map { finding in
            let location = converter.location(for: finding.position)
            return LintDiagnostic(path: path, line: location.line, column: location.column, rule: finding.rule, message: finding.message)
        }.filter { !disabled.silences($0) }.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }
}
