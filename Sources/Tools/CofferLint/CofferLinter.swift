import KeychainModel
import SwiftOperators
import SwiftParser
import SwiftSyntax

/// Lints Swift source for the pitfalls of Apple's keychain calls: each query dictionary followed from where it is
/// built to the call that uses it, through the package's own helpers, and judged with the keychain reference's
/// rules (Query's schema of each item class).
public enum CofferLinter {
    /// The version of the rules: Coffer's.
    public static var version: String { CofferVersion.current }

    /// One file to lint: its path as it should be reported, and its text.
    public struct Input: Sendable {
        public let path: String
        public let source: String

        public init(path: String, source: String) {
            self.path = path
            self.source = source
        }
    }

    /// The findings in `files`, judged together (a helper in one file serves calls in another), in file and line
    /// order, less those disable comments or `configuration` silence.
    public static func lint(_ files: [Input], configuration: LintConfiguration = LintConfiguration()) -> [LintDiagnostic] {
        let parsed = files.map { input in SourceFile(path: input.path, tree: parse(input.source), text: input.source) }
        // Helpers that build on other helpers are known after a second round.
        var helpers = HelperCatalogue()
        for _ in 0..<2 {
            var next = HelperCatalogue()
            for file in parsed {
                let scanner = DictionaryScanner(file: file, helpers: helpers)
                scanner.walk(file.tree)
                next.absorb(scanner.collected)
            }
            helpers = next
        }
        var findings: [Finding] = []
        var calls: [KeychainCall] = []
        for file in parsed {
            let scanner = DictionaryScanner(file: file, helpers: helpers)
            scanner.walk(file.tree)
            calls += scanner.calls
            findings += scanner.calls.flatMap(CallRules.check)
            findings += SequenceRules.check(scanner.calls, facts: scanner.facts)
            let exposure = ExposureScanner(file: file)
            exposure.walk(file.tree)
            findings += exposure.findings
        }
        findings += ProgramRules.check(calls)
        let disabled = Dictionary(parsed.map { ($0.path, DisableComments(source: $0.text)) }, uniquingKeysWith: { first, _ in first })
        let diagnostics = Set(findings.map(\.diagnostic)).filter { diagnostic in
            !configuration.silences(diagnostic) && disabled[diagnostic.path]?.silences(diagnostic) != true
        }
        return diagnostics.sorted { ($0.point, $0.rule) < ($1.point, $1.rule) }
    }

    /// The findings in one file, reported as from `path`.
    public static func lint(source: String, path: String) -> [LintDiagnostic] {
        lint([Input(path: path, source: source)])
    }

    /// The file's syntax tree with operators folded: casts and assignments come out of the parser as flat
    /// sequences, and folding them with Swift's own operators makes `kSecClass as String` a cast and
    /// `query[key] = value` an assignment. What does not fold stays as it was.
    private static func parse(_ source: String) -> SourceFileSyntax {
        let parsed = Parser.parse(source: source)
        return OperatorTable.standardOperators.foldAll(parsed) { _ in }.as(SourceFileSyntax.self) ?? parsed
    }
}
