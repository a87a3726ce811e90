import Foundation

/// `--format sarif`: SARIF 2.1.0, which GitHub code scanning and other tools read, with every rule described
/// and each finding's fix as an artifact change.
public enum SARIFReport {
    /// The findings as one SARIF log with one run. `version` is the tool's version.
    public static func render(_ findings: [LintDiagnostic], version: String) -> String {
        let rules = LintRule.allCases
        let ruleObjects: [[String: Any]] = rules.map { rule in
            [
                "id": rule.rawValue, "shortDescription": ["text": rule.summary], "fullDescription": ["text": rule.reason],
                "helpUri": rule.documentation, "defaultConfiguration": ["level": level(rule)],
            ]
        }
        let results: [[String: Any]] = findings.map { finding in
            var result: [String: Any] = [
                "ruleId": finding.rule.rawValue, "ruleIndex": rules.firstIndex(of: finding.rule) ?? 0, "level": level(finding.rule),
                "message": ["text": finding.message],
                "locations": [
                    [
                        "physicalLocation": [
                            "artifactLocation": ["uri": uri(finding.path)], "region": ["startLine": finding.line, "startColumn": finding.column],
                        ]
                    ]
                ],
            ]
            if let fix = finding.fixIt {
                result["fixes"] = [
                    [
                        "description": ["text": fix.summary],
                        "artifactChanges": [
                            [
                                "artifactLocation": ["uri": uri(fix.start.path)],
                                "replacements": [
                                    [
                                        "deletedRegion": [
                                            "startLine": fix.start.line, "startColumn": fix.start.column, "endLine": fix.end.line,
                                            "endColumn": fix.end.column,
                                        ],
                                        "insertedContent": ["text": fix.replacement],
                                    ]
                                ],
                            ]
                        ],
                    ]
                ]
            }
            return result
        }
        let log: [String: Any] = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
            "runs": [
                [
                    "tool": ["driver": ["name": "coffer-lint", "version": version, "rules": ruleObjects]],
                    "results": results,
                ]
            ],
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: log, options: [.prettyPrinted, .sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func level(_ rule: LintRule) -> String { rule.severity == .error ? "error" : "warning" }

    /// A relative path as SARIF wants it: forward slashes, no leading `./`, each component percent-encoded.
    private static func uri(_ path: String) -> String {
        let trimmed = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        return trimmed.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? trimmed
    }
}
