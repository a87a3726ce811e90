import Testing
@testable import Query

/// The rules refusals name are one closed list: every number of the reference's §3.2, once, each with its situation.
@Suite struct KeychainRuleTests {
    @Test func everyRuleOfTheReferenceIsListedOnceInOrder() {
        let ids = KeychainRule.allCases.map(\.id)
        let expected =
            (1...22).map { "G\($0)" } + (1...11).map { "A\($0)" } + (1...8).map { "C\($0)" } + (1...14).map { "U\($0)" }
            + (1...6).map { "D\($0)" }
        #expect(ids == expected)
        #expect(Set(KeychainRule.allCases).count == KeychainRule.allCases.count)
        for rule in KeychainRule.allCases {
            #expect(KeychainRule(id: rule.id) == rule)
            #expect(!rule.situation.isEmpty)
            #expect(rule.description == rule.id)
        }
        #expect(KeychainRule(id: "G23") == nil)
        #expect(KeychainRule(id: "g4") == nil)
        #expect(KeychainRule.g13.id == "G13")
    }
}
