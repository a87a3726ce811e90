import CofferLint
import Foundation
import Testing

/// The rules that judge one call by its dictionaries, on code written the way keychain wrappers are: for each,
/// code it flags (with its rule and line) and code it leaves alone.
@Suite struct CallRuleTests {
    @Test func anAttributeOfAnotherClassIsFlaggedWhereItIsWritten() {
        let flagged = CofferLinter.lint(
            source: """
                func save(password: Data) -> OSStatus {
                    var query: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword,
                        kSecAttrService as String: "com.example",
                    ]
                    query[kSecAttrServer as String] = "example.com"
                    query[kSecValueData as String] = password
                    return SecItemAdd(query as CFDictionary, nil)
                }
                """, path: "Wrapper.swift")
        #expect(
            flagged.map(\.compilerStyle) == [
                "Wrapper.swift:6:11: error: [attribute-not-in-class] kSecAttrServer is not an attribute of kSecClassGenericPassword"
            ])
        #expect(
            LintProbe.lines(
                """
                func save(password: Data) -> OSStatus {
                    let query = [kSecClass: kSecClassInternetPassword, kSecAttrServer: "example.com", kSecValueData: password] as [CFString: Any]
                    return SecItemAdd(query as CFDictionary, nil)
                }
                """
            ).isEmpty)
    }

    @Test func aNewKeysAttributesAreAKeysNestedOnesToo() {
        #expect(
            LintProbe.lines(
                """
                func makeKey() -> SecKey? {
                    let attributes: [String: Any] = [
                        kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                        kSecAttrKeySizeInBits as String: 256,
                        kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true, kSecAttrService as String: "signing"],
                    ]
                    return SecKeyCreateRandomKey(attributes as CFDictionary, nil)
                }
                """) == ["5 attribute-not-in-class"])
        #expect(
            LintProbe.lines(
                """
                func makeKey(tag: Data) -> SecKey? {
                    let attributes: [String: Any] = [
                        kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                        kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: tag],
                    ]
                    return SecKeyCreateRandomKey(attributes as CFDictionary, nil)
                }
                """
            ).isEmpty)
    }

    @Test func aMatchLimitInAnAddIsFlaggedWithItsRemovalAndInASearchIsNot() throws {
        let flagged = CofferLinter.lint(
            source: """
                func add() -> OSStatus {
                    let attributes: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitOne]
                    return SecItemAdd(attributes as CFDictionary, nil)
                }
                """, path: "Wrapper.swift")
        #expect(flagged.map(\.compilerStyle) == ["Wrapper.swift:2:85: error: [match-limit-in-add] kSecMatchLimit in SecItemAdd: a search key in an add"])
        let fix = try #require(flagged.first?.fixIt)
        // From the comma after the class to the end of the limit's entry.
        #expect(fix.summary == "remove kSecMatchLimit")
        #expect((fix.start.line, fix.start.column, fix.end.line, fix.end.column, fix.replacement) == (2, 83, 2, 128, ""))
        #expect(
            LintProbe.lines(
                """
                func find() -> Data? {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitOne, kSecReturnData as String: true]
                    var result: CFTypeRef?
                    guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return nil }
                    return result as? Data
                }
                """
            ).isEmpty)
    }

    @Test func anUpdateWithReturnKeysDataInItsQueryOrAClassToChangeIsFlagged() {
        #expect(
            LintProbe.lines(
                """
                func update(_ secret: Data) -> OSStatus {
                    let query: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword,
                        kSecValueData as String: secret,
                        kSecReturnData as String: true,
                    ]
                    let changes: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
                    return SecItemUpdate(query as CFDictionary, changes as CFDictionary)
                }
                """) == ["4 value-in-update-query", "5 return-in-update", "7 class-in-update-attributes"])
        #expect(
            LintProbe.lines(
                """
                func update(_ secret: Data) -> OSStatus {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "me"]
                    return SecItemUpdate(query as CFDictionary, [kSecValueData as String: secret] as CFDictionary)
                }
                """
            ).isEmpty)
    }

    @Test func theDeprecatedAlwaysProtectionIsAWarningWithItsReplacement() throws {
        let flagged = CofferLinter.lint(
            source: """
                func keep(_ secret: Data) -> OSStatus {
                    var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
                    query.merge([kSecAttrAccessible as String: kSecAttrAccessibleAlwaysThisDeviceOnly as String]) { $1 }
                    return SecItemAdd(query as CFDictionary, nil)
                }
                """, path: "Wrapper.swift")
        #expect(flagged.map(\.rule) == [.accessibleAlways])
        #expect(flagged.first?.rule.severity == .warning)
        let fix = try #require(flagged.first?.fixIt)
        #expect(fix.replacement == "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly")
        #expect((fix.start.line, fix.start.column, fix.end.column) == (3, 48, 48 + "kSecAttrAccessibleAlwaysThisDeviceOnly".count))
        #expect(
            LintProbe.lines(
                """
                func keep(_ secret: Data) -> OSStatus {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock]
                    return SecItemAdd(query as CFDictionary, nil)
                }
                """
            ).isEmpty)
    }

    @Test func synchronizableWithThisDeviceOnlyOrAConstrainedAccessControlIsFlagged() {
        #expect(
            LintProbe.lines(
                """
                func keep(_ token: Data) -> OSStatus {
                    let query: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword,
                        kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
                        kSecAttrSynchronizable as String: true,
                        kSecValueData as String: token,
                    ]
                    return SecItemAdd(query as CFDictionary, nil)
                }
                func guarded(_ token: Data) -> OSStatus {
                    let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil)!
                    let query: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword,
                        kSecAttrAccessControl as String: access,
                        kSecAttrSynchronizable as String: kCFBooleanTrue!,
                        kSecValueData as String: token,
                    ]
                    return SecItemAdd(query as CFDictionary, nil)
                }
                """) == ["5 synchronizable-this-device-only", "15 synchronizable-access-control"])
        #expect(
            LintProbe.lines(
                """
                func keep(_ token: Data) -> OSStatus {
                    let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [], nil)!
                    let query: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword,
                        kSecAttrAccessControl as String: access,
                        kSecAttrSynchronizable as String: true,
                        kSecValueData as String: token,
                    ]
                    return SecItemAdd(query as CFDictionary, nil)
                }
                """
            ).isEmpty)
    }

    @Test func aSecretWrittenIntoTheSourceIsFlagged() {
        #expect(
            LintProbe.lines(
                """
                func seed() -> OSStatus {
                    let apiKey = "sk_live_0123456789"
                    let query: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword,
                        kSecAttrService as String: "billing",
                        kSecValueData as String: apiKey.data(using: .utf8)!,
                    ]
                    return SecItemAdd(query as CFDictionary, nil)
                }
                func seedBytes() -> OSStatus {
                    SecItemAdd([kSecClass: kSecClassKey, kSecValueData: Data([0x01, 0x02, 0x03])] as CFDictionary, nil)
                }
                """) == ["6 hard-coded-secret", "11 hard-coded-secret"])
        #expect(
            LintProbe.lines(
                """
                func store(_ apiKey: String) -> OSStatus {
                    let service = "billing"
                    let query: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword,
                        kSecAttrService as String: service,
                        kSecValueData as String: Data(apiKey.utf8),
                    ]
                    return SecItemAdd(query as CFDictionary, nil)
                }
                """
            ).isEmpty)
    }

    @Test func theMacOSBranchWithoutTheDataProtectionKeychainIsFlagged() {
        #expect(
            LintProbe.lines(
                """
                func remove(account: String) -> OSStatus {
                    var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account]
                    #if os(iOS)
                    return SecItemDelete(query as CFDictionary)
                    #else
                    return SecItemDelete(query as CFDictionary)
                    #endif
                }
                """) == ["6 data-protection-keychain-missing"])
        #expect(
            LintProbe.lines(
                """
                func remove(account: String) -> OSStatus {
                    var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account]
                    #if canImport(UIKit)
                    return SecItemDelete(query as CFDictionary)
                    #else
                    query[kSecUseDataProtectionKeychain as String] = true
                    return SecItemDelete(query as CFDictionary)
                    #endif
                }
                """
            ).isEmpty)
    }
}
