import CofferLint
import Testing

/// The rules that judge a function's calls together: what it does with their statuses and results, and in which
/// order it deletes, adds and updates.
@Suite struct SequenceRuleTests {
    @Test func aStatusNobodyReadsIsFlagged() {
        #expect(
            LintProbe.lines(
                """
                func save(_ query: [String: Any]) {
                    SecItemAdd(query as CFDictionary, nil)
                }
                func forget(_ query: [String: Any]) {
                    _ = SecItemDelete(query as CFDictionary)
                }
                func change(_ query: [String: Any], _ changes: [String: Any]) {
                    let status = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
                }
                """) == ["2 status-ignored", "5 status-ignored", "8 status-ignored"])
        #expect(
            LintProbe.lines(
                """
                func save(_ query: [String: Any]) throws {
                    let status = SecItemAdd(query as CFDictionary, nil)
                    guard status == errSecSuccess else { throw KeychainError(status) }
                }
                func forget(_ query: [String: Any]) -> Bool {
                    SecItemDelete(query as CFDictionary) == errSecSuccess
                }
                let erase: ([String: Any]) -> OSStatus = { SecItemDelete($0 as CFDictionary) }
                """
            ).isEmpty)
    }

    @Test func anUpdateAfterAnyFailedAddIsFlaggedAndAfterADuplicateIsNot() {
        #expect(
            LintProbe.lines(
                """
                func save(_ token: Data, account: String) {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account]
                    var attributes = query
                    attributes[kSecValueData as String] = token
                    if SecItemAdd(attributes as CFDictionary, nil) != errSecSuccess {
                        let status = SecItemUpdate(query as CFDictionary, [kSecValueData as String: token] as CFDictionary)
                        precondition(status == errSecSuccess)
                    }
                }
                """) == ["6 duplicate-not-checked"])
        #expect(
            LintProbe.lines(
                """
                func save(_ token: Data, account: String) throws {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account]
                    var attributes = query
                    attributes[kSecValueData as String] = token
                    var status = SecItemAdd(attributes as CFDictionary, nil)
                    if status == errSecDuplicateItem {
                        status = SecItemUpdate(query as CFDictionary, [kSecValueData as String: token] as CFDictionary)
                    }
                    guard status == errSecSuccess else { throw KeychainError(status) }
                }
                """
            ).isEmpty)
    }

    @Test func aDeleteBeforeAnAddOfTheSameItemIsFlagged() {
        #expect(
            LintProbe.lines(
                """
                func save(_ token: Data) -> OSStatus {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "api"]
                    SecItemDelete(query as CFDictionary)
                    var attributes = query
                    attributes[kSecValueData as String] = token
                    return SecItemAdd(attributes as CFDictionary, nil)
                }
                """) == ["3 delete-then-add", "3 status-ignored"])
        // Another item's delete, or a delete after the add, is not this pitfall.
        #expect(
            LintProbe.lines(
                """
                func rotate(_ token: Data) -> OSStatus {
                    let old: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "api-v1"]
                    let new: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "api-v2", kSecValueData as String: token]
                    let status = SecItemAdd(new as CFDictionary, nil)
                    guard status == errSecSuccess else { return status }
                    return SecItemDelete(old as CFDictionary)
                }
                """
            ).isEmpty)
    }

    @Test func theArticlesHelperRaisesWhatTheArticleSays() {
        // FindingKeychainPitfalls.md's example: the service is a property whose value the source does not show, and
        // the add's dictionary is a copy of the delete's, so both name the same entries.
        #expect(
            LintProbe.lines(
                """
                func set(_ value: String, forKey key: String) {
                    let query: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword,
                        kSecAttrService as String: service,
                        kSecAttrAccount as String: key,
                    ]
                    SecItemDelete(query as CFDictionary)
                    var attributes = query
                    attributes[kSecValueData as String] = Data(value.utf8)
                    SecItemAdd(attributes as CFDictionary, nil)
                }
                """) == ["7 delete-then-add", "7 status-ignored", "10 status-ignored"])
    }

    @Test func aSingleResultReadAsAnArrayIsFlagged() {
        #expect(
            LintProbe.lines(
                """
                func accounts() -> [String] {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecReturnAttributes as String: true]
                    var result: CFTypeRef?
                    guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess,
                        let items = result as? [[String: Any]]
                    else { return [] }
                    return items.compactMap { $0[kSecAttrAccount as String] as? String }
                }
                """) == ["4 missing-match-limit"])
        #expect(
            LintProbe.lines(
                """
                func accounts() -> [String] {
                    let query: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword, kSecReturnAttributes as String: true, kSecMatchLimit as String: kSecMatchLimitAll,
                    ]
                    var result: CFTypeRef?
                    guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess,
                        let items = result as? [[String: Any]]
                    else { return [] }
                    return items.compactMap { $0[kSecAttrAccount as String] as? String }
                }
                """
            ).isEmpty)
    }
}
