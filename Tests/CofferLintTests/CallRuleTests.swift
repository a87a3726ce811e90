import CofferLint
import Foundation
import Testing

/// Each rule on code written the way keychain wrappers are: one case that the rule flags, with its rule and line,
/// and one that it leaves alone.
@Suite struct CallRuleTests {
    private func findings(_ source: String) -> [String] {
        CofferLinter.lint(source: source, path: "Wrapper.swift").map(\.compilerStyle)
    }

    @Test func anAttributeOfAnotherClassIsFlaggedWhereItIsWritten() {
        let flagged = findings(
            """
            func save(password: Data) -> OSStatus {
                var query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrService as String: "com.example",
                ]
                query[kSecAttrServer as String] = "example.com"
                query[kSecValueData as String] = password
                return SecItemAdd(query as CFDictionary, nil)
            }
            """)
        #expect(
            flagged == [
                "Wrapper.swift:6:11: error: [attribute-not-in-class] kSecAttrServer is not an attribute of kSecClassGenericPassword"
            ])
        let fine = findings(
            """
            func save(password: Data) -> OSStatus {
                let query = [kSecClass: kSecClassInternetPassword, kSecAttrServer: "example.com", kSecValueData: password] as [CFString: Any]
                return SecItemAdd(query as CFDictionary, nil)
            }
            """)
        #expect(fine.isEmpty)
    }

    @Test func aMatchLimitInAnAddIsFlaggedAndInASearchIsNot() {
        #expect(
            findings(
                """
                func add() {
                    let attributes: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitOne]
                    SecItemAdd(attributes as CFDictionary, nil)
                }
                """) == ["Wrapper.swift:2:85: error: [match-limit-in-add] kSecMatchLimit in SecItemAdd: a search key in an add"])
        #expect(
            findings(
                """
                func find() {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitOne]
                    var result: CFTypeRef?
                    SecItemCopyMatching(query as CFDictionary, &result)
                }
                """
            ).isEmpty)
    }

    @Test func anUpdateWithReturnKeysDataInItsQueryOrAClassToChangeIsFlagged() {
        let flagged = findings(
            """
            func update(_ secret: Data) {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecValueData as String: secret,
                    kSecReturnData as String: true,
                ]
                let changes: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
                SecItemUpdate(query as CFDictionary, changes as CFDictionary)
            }
            """)
        #expect(
            flagged == [
                "Wrapper.swift:4:9: error: [value-in-update-query] kSecValueData in SecItemUpdate's query: the new data goes in the attributes to update",
                "Wrapper.swift:5:9: error: [return-in-update] kSecReturnData in SecItemUpdate, which returns nothing",
                "Wrapper.swift:7:35: error: [class-in-update-attributes] kSecClass in SecItemUpdate's attributes to update: an item's class cannot change",
            ])
        #expect(
            findings(
                """
                func update(_ secret: Data) {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "me"]
                    SecItemUpdate(query as CFDictionary, [kSecValueData as String: secret] as CFDictionary)
                }
                """
            ).isEmpty)
    }

    @Test func theDeprecatedAlwaysProtectionIsAWarningMergedOrNot() {
        let flagged = CofferLinter.lint(
            source: """
                func keep(_ secret: Data) {
                    var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
                    query.merge([kSecAttrAccessible as String: kSecAttrAccessibleAlways]) { $1 }
                    SecItemAdd(query as CFDictionary, nil)
                }
                """, path: "Wrapper.swift")
        #expect(flagged.map(\.rule) == [.accessibleAlways])
        #expect(flagged.first?.rule.severity == .warning)
        #expect(flagged.first?.line == 3)
        #expect(
            findings(
                """
                func keep(_ secret: Data) {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock]
                    SecItemAdd(query as CFDictionary, nil)
                }
                """
            ).isEmpty)
    }

    @Test func dictionariesAreFollowedWithinTheirFunctionOnly() {
        // The same name in another function is another dictionary.
        #expect(
            findings(
                """
                func first() {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrServer as String: "x"]
                    _ = query
                }
                func second() {
                    let query: [String: Any] = [kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "x"]
                    SecItemDelete(query as CFDictionary)
                }
                """
            ).isEmpty)
    }
}

/// What silences a finding, and what the tools read.
@Suite struct LintOutputTests {
    private let flaggedSource = """
        func save() {
            let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrServer as String: "x"]
            SecItemAdd(query as CFDictionary, nil)
        }
        """

    @Test func disableCommentsSilenceTheirRuleOnTheirLineTheNextOrTheFile() {
        #expect(CofferLinter.lint(source: flaggedSource, path: "A.swift").count == 1)
        let lineBefore = flaggedSource.replacingOccurrences(
            of: "    let query", with: "    // coffer-lint:disable attribute-not-in-class\n    let query")
        #expect(CofferLinter.lint(source: lineBefore, path: "A.swift").isEmpty)
        let otherRule = flaggedSource.replacingOccurrences(of: "    let query", with: "    // coffer-lint:disable match-limit-in-add\n    let query")
        #expect(CofferLinter.lint(source: otherRule, path: "A.swift").count == 1)
        #expect(CofferLinter.lint(source: "// coffer-lint:disable-file all\n" + flaggedSource, path: "A.swift").isEmpty)
    }

    @Test func theJSONReportCarriesTheRuleSeverityAndReason() throws {
        let json = JSONReport.render(CofferLinter.lint(source: flaggedSource, path: "A.swift"))
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(objects.count == 1)
        #expect(objects.first?["rule"] as? String == "attribute-not-in-class")
        #expect(objects.first?["severity"] as? String == "error")
        #expect(objects.first?["line"] as? Int == 2)
        #expect((objects.first?["reason"] as? String)?.contains("G4") == true)
    }
}
