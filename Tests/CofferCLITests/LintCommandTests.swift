import Foundation
import Testing

/// `coffer lint` runs `coffer-lint` in its place: the findings, compiler-style, JSON or SARIF, a package's
/// configuration file, and the exit status by severity.
@Suite struct LintCommandTests {
    private static let samplePackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("CofferLintTests/Fixtures/SamplePackage")

    @Test func findingsAndTheExitStatusAreCofferLints() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wrapper = folder.appendingPathComponent("Wrapper.swift")
        try """
        func save(_ secret: Data) -> OSStatus {
            var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
            query[kSecAttrAccessible as String] = kSecAttrAccessibleAlways
            return SecItemAdd(query as CFDictionary, nil)
        }
        """.write(to: wrapper, atomically: true, encoding: .utf8)
        let cli = CLIRunner()
        let warned = try cli.run(["lint", folder.path])
        #expect(warned.status == 1, "\(warned.standardError)")
        #expect(
            warned.standardOutput
                == "\(wrapper.path):3:11: warning: [accessible-always] kSecAttrAccessibleAlways is deprecated: the item is readable while the device is locked\n"
        )
        let json = try cli.run(["lint", "--format", "json", wrapper.path])
        #expect(json.standardOutput.contains("\"rule\" : \"accessible-always\""))
        try "func clean() {}\n".write(to: wrapper, atomically: true, encoding: .utf8)
        #expect(try cli.run(["lint", folder.path]).status == 0)
        let missing = try cli.run(["lint", folder.appendingPathComponent("nope.swift").path])
        #expect(missing.status != 0 && missing.standardError.contains("no such file or folder"))
        let unknown = try cli.run(["lint", "--explain", "no-such-rule"])
        #expect(unknown.status != 0 && unknown.standardError.contains("no-such-rule is not a rule"))
        let explained = try cli.run(["lint", "--explain", "delete-then-add"])
        #expect(explained.status == 0 && explained.standardOutput.contains("errSecDuplicateItem"))
    }

    @Test func aPackageIsLintedWithItsConfigurationFile() throws {
        let cli = CLIRunner()
        let package = Self.samplePackage.path
        // From the package's folder its .coffer-lint.json applies: secret-in-log is off, Generated/ left out, and
        // the second delete carries a disable comment.
        let findings = try cli.runShell("cd '\(package)' && \"$COFFER\" lint Sources")
        #expect(findings.status == 2, "\(findings.standardError)")
        #expect(
            findings.standardOutput.split(separator: "\n") == [
                "Sources/Sample/TokenStore.swift:14:13: error: [match-limit-in-add] kSecMatchLimit in SecItemAdd: a search key in an add",
                "Sources/Sample/TokenStore.swift:22:9: warning: [status-ignored] the OSStatus of SecItemDelete is ignored: a failure passes silently",
            ])
        let sarif = try cli.runShell("cd '\(package)' && \"$COFFER\" lint --format sarif Sources")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.standardOutput.utf8)) as? [String: Any])
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        #expect(results.map { $0["ruleId"] as? String } == ["match-limit-in-add", "status-ignored"])
        // Another configuration file, named on the command line, can turn everything found here off.
        let quiet = FileManager.default.temporaryDirectory.appendingPathComponent("quiet-\(UUID().uuidString).json")
        try #"{"disable": ["match-limit-in-add", "status-ignored", "secret-in-log"]}"#.write(to: quiet, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: quiet) }
        let silenced = try cli.runShell("cd '\(package)' && \"$COFFER\" lint --config '\(quiet.path)' Sources/Sample/TokenStore.swift")
        #expect(silenced.status == 0 && silenced.standardOutput.isEmpty, "\(silenced.standardOutput)")
        let broken = try cli.run(["lint", "--config", "/nonexistent/.coffer-lint.json", package])
        #expect(broken.status != 0 && broken.standardError.contains("cannot be read"))
    }
}
