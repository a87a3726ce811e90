import CofferLint
import Foundation
import Testing

/// What silences a finding, and what the tools read: disable comments, the configuration file, JSON and SARIF.
@Suite struct LintOutputTests {
    private let flaggedSource = """
        func save() -> OSStatus {
            let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrServer as String: "x", kSecMatchLimit as String: kSecMatchLimitOne]
            return SecItemAdd(query as CFDictionary, nil)
        }
        """

    @Test func disableCommentsSilenceTheirRuleOnTheirLineTheNextOrTheFile() {
        #expect(LintProbe.lines(flaggedSource) == ["2 attribute-not-in-class", "2 match-limit-in-add"])
        let lineBefore = flaggedSource.replacingOccurrences(of: "    let query", with: "    // coffer-lint:disable attribute-not-in-class\n    let query")
        #expect(LintProbe.lines(lineBefore) == ["3 match-limit-in-add"])
        let both = flaggedSource.replacingOccurrences(
            of: "    let query", with: "    // coffer-lint:disable attribute-not-in-class, match-limit-in-add: on purpose, see status-ignored\n    let query")
        #expect(LintProbe.lines(both).isEmpty)
        #expect(LintProbe.lines("// coffer-lint:disable-file all\n" + flaggedSource).isEmpty)
    }

    @Test func theConfigurationDisablesRulesAndExcludesPaths() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-lint-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(LintConfiguration.fileName).path
        try
            #"{"disable": ["match-limit-in-add"], "disableIn": {"attribute-not-in-class": ["Tests"]}, "exclude": ["Tests/Fixtures", "Sources/*/Generated*.swift"]}"#
            .write(
                toFile: file, atomically: true, encoding: .utf8)
        let configuration = try LintConfiguration.load(path: file)
        #expect(configuration.disabled == [.matchLimitInAdd])
        #expect(configuration.excludes(path: folder.path + "/Tests/Fixtures/Deep/Bad.swift"))
        #expect(configuration.excludes(path: folder.path + "/Sources/App/GeneratedQueries.swift"))
        #expect(!configuration.excludes(path: folder.path + "/Sources/App/Queries.swift"))
        #expect(!configuration.excludes(path: folder.path + "/Tests/FixturesMore/A.swift"))
        let findings = CofferLinter.lint([.init(path: "A.swift", source: flaggedSource)], configuration: configuration)
        #expect(findings.map(\.rule) == [.attributeNotInClass])
        // The same file under Tests/ has the rule turned off there.
        #expect(CofferLinter.lint([.init(path: folder.path + "/Tests/A.swift", source: flaggedSource)], configuration: configuration).isEmpty)

        for (text, problem) in [
            (#"{"disable": ["no-such-rule"]}"#, "\"no-such-rule\" is not a rule"), (#"{"exclude": "Tests"}"#, "\"exclude\" must be a list"),
            (#"{"disabled": []}"#, "unknown setting \"disabled\""), ("not json", "not a JSON object"),
            (#"{"disableIn": {"status-ignored": "Tests"}}"#, "must be a list"),
        ] {
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            #expect(throws: LintConfiguration.Problem.self) { try LintConfiguration.load(path: file) }
            do {
                _ = try LintConfiguration.load(path: file)
            } catch {
                #expect(error.description.contains(problem), "\(error.description)")
            }
        }
    }

    @Test func theJSONReportCarriesTheRuleSeverityReasonAndFix() throws {
        let json = JSONReport.render(CofferLinter.lint(source: flaggedSource, path: "A.swift"))
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(objects.map { $0["rule"] as? String } == ["attribute-not-in-class", "match-limit-in-add"])
        #expect(objects.first?["severity"] as? String == "error")
        #expect(objects.first?["line"] as? Int == 2)
        #expect((objects.first?["reason"] as? String)?.contains("errSecNoSuchAttr") == true)
        #expect((objects.last?["fix"] as? [String: Any])?["replacement"] as? String == "")
    }

    @Test func theSARIFReportIsWhatCodeScanningReads() throws {
        let sarif = SARIFReport.render(CofferLinter.lint(source: flaggedSource, path: "./Sources/A.swift"), version: "1.0")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == LintRule.allCases.map(\.rawValue))
        #expect(rules.allSatisfy { ($0["helpUri"] as? String)?.hasPrefix("https://") == true })
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.map { $0["ruleId"] as? String } == ["attribute-not-in-class", "match-limit-in-add"])
        #expect(results.map { $0["level"] as? String } == ["error", "error"])
        let location = try #require((results.first?["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == "Sources/A.swift")
        #expect((location["region"] as? [String: Any])?["startLine"] as? Int == 2)
        let ruleIndex = try #require(results.last?["ruleIndex"] as? Int)
        #expect(rules[ruleIndex]["id"] as? String == "match-limit-in-add")
        #expect((results.last?["fixes"] as? [[String: Any]])?.count == 1)
    }
}
