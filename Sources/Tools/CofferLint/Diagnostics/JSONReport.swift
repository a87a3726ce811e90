import Foundation

/// `--format json`: every finding with its rule's severity and reason, for tools.
public enum JSONReport {
    /// The findings as a JSON array of objects (path, line, column, rule, severity, message, reason).
    public static func render(_ findings: [LintDiagnostic]) -> String {
        let objects: [[String: Any]] = findings.map { finding in
            [
                "path": finding.path, "line": finding.line, "column": finding.column, "rule": finding.rule.rawValue,
                "severity": finding.rule.severity.rawValue, "message": finding.message, "reason": finding.rule.reason,
            ]
        }
        guard let data = try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys]) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }
}
