import Foundation

/// `--format json`: every finding with its rule's severity, reason, documentation and fix, for tools.
public enum JSONReport {
    /// The findings as a JSON array of objects (path, line, column, rule, severity, message, reason,
    /// documentation, and fix when there is one).
    public static func render(_ findings: [LintDiagnostic]) -> String {
        let objects: [[String: Any]] = findings.map { finding in
            var object: [String: Any] = [
                "path": finding.path, "line": finding.line, "column": finding.column, "rule": finding.rule.rawValue,
                "severity": finding.rule.severity.rawValue, "message": finding.message, "reason": finding.rule.reason,
                "documentation": finding.rule.documentation,
            ]
            if let fix = finding.fixIt {
                object["fix"] = [
                    "summary": fix.summary, "startLine": fix.start.line, "startColumn": fix.start.column, "endLine": fix.end.line,
                    "endColumn": fix.end.column, "replacement": fix.replacement,
                ]
            }
            return object
        }
        guard let data = try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys]) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }
}
