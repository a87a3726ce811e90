import CofferLint

/// Lints source written for a test and names each finding by line and rule, the way a reader scans them.
enum LintProbe {
    /// `"line rule"` for each finding of `source`, in order.
    static func lines(_ source: String, path: String = "Wrapper.swift") -> [String] {
        CofferLinter.lint(source: source, path: path).map { "\($0.line) \($0.rule.rawValue)" }
    }

    /// The same for several files judged together.
    static func lines(_ files: [String: String]) -> [String] {
        CofferLinter.lint(files.sorted { $0.key < $1.key }.map { CofferLinter.Input(path: $0.key, source: $0.value) }).map {
            "\($0.path):\($0.line) \($0.rule.rawValue)"
        }
    }
}
