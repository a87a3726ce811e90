import CofferLint
import Foundation
import Testing

/// Whole wrappers in the shapes keychain code takes in the wild: one written with care raises nothing, one in
/// the style tutorials teach raises each pitfall on the line that carries an `expect:` comment naming it.
@Suite struct FixtureTests {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    private func lint(_ name: String) throws -> (source: String, findings: [LintDiagnostic]) {
        let source = try String(contentsOf: Self.fixtures.appendingPathComponent(name), encoding: .utf8)
        return (source, CofferLinter.lint(source: source, path: name))
    }

    @Test func aCarefulWrapperRaisesNothing() throws {
        let (_, findings) = try lint("CarefulKeychain.swift")
        #expect(findings.map(\.compilerStyle) == [])
    }

    @Test func aTutorialStyleWrapperRaisesEachPitfallOnItsLine() throws {
        let (source, findings) = try lint("TutorialKeychain.swift")
        var expected: [String] = []
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let marker = line.range(of: "// expect: ") else { continue }
            for rule in line[marker.upperBound...].split(separator: ",") {
                expected.append("\(index + 1) \(rule.trimmingCharacters(in: .whitespaces))")
            }
        }
        let found = findings.map { "\($0.line) \($0.rule.rawValue)" }
        #expect(found.sorted() == expected.sorted())
        // Every rule but four has its line here. The tutorial shape never sends those four (an access control with
        // constraints beside synchronizable, a protected item read without a context, data in an update's search, a
        // class among an update's changes); the rule tests hold them.
        let covered = Set(findings.map(\.rule))
        #expect(
            Set(LintRule.allCases).subtracting(covered) == [
                .synchronizableAccessControl, .userPresenceWithoutContext, .valueInUpdateQuery, .classInUpdateAttributes,
            ])
        // Every message names its rule and its line.
        for finding in findings {
            #expect(finding.compilerStyle.hasPrefix("TutorialKeychain.swift:\(finding.line):"))
            #expect(finding.compilerStyle.contains("[\(finding.rule.rawValue)]"))
        }
    }
}
