import Foundation
import Security
import Testing

/// The keys and idioms macOS-flavoured SecItem code sends, each with Apple's status for the data-protection
/// keychain (the table in docs/MacOSBranch.md; one test per row).
@Suite(.timeLimit(.minutes(10))) struct MacOSBranchSweepTests {
    private static let service = "sweep"

    private static func item(_ account: String, _ extra: [String: Any] = [:]) -> [String: Any] {
        genericPassword(service: service, account: account, extra)
    }

    private static func search(_ account: String? = nil, _ extra: [String: Any] = [:]) -> [String: Any] {
        genericPasswordSearch(service: service, account: account, extra)
    }

    private static func attributes(_ query: [String: Any]) -> (OSStatus, [String: Any]?) {
        var result: CFTypeRef?
        var find = query
        find[kSecReturnAttributes as String] = true
        let status = SecItemCopyMatching(find as CFDictionary, &result)
        return (status, result as? [String: Any])
    }

    /// `kSecUseDataProtectionKeychain` true, false or absent reaches the same items: Coffer has one keychain,
    /// and the daemon ignores the key (`nleg`) in every call.
    @Test(arguments: BoundaryTransport.allCases) func dataProtectionKeychainFlagIsIgnored(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            for (index, flag) in [true, false].enumerated() {
                let flagged = [kSecUseDataProtectionKeychain as String: flag]
                #expect(SecItemAdd(Self.item("dp\(index)", flagged) as CFDictionary, nil) == errSecSuccess)
                #expect(SecItemCopyMatching(Self.search("dp\(index)", flagged) as CFDictionary, nil) == errSecSuccess)
                #expect(SecItemCopyMatching(Self.search("dp\(index)") as CFDictionary, nil) == errSecSuccess)
                let label = [kSecAttrLabel as String: "L"].merging(flagged) { _, new in new }
                #expect(SecItemUpdate(Self.search("dp\(index)", flagged) as CFDictionary, label as CFDictionary) == errSecSuccess)
                #expect(SecItemDelete(Self.search("dp\(index)", flagged) as CFDictionary) == errSecSuccess)
                #expect(SecItemCopyMatching(Self.search("dp\(index)") as CFDictionary, nil) == errSecItemNotFound)
            }
        }
    }

    /// `kSecAttrSynchronizableAny`: on add it means not synchronizable; searches, update queries and deletes
    /// reach both; as a new value in an update it is ignored.
    @Test(arguments: BoundaryTransport.allCases) func synchronizableAnyInEveryCall(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            let any = [kSecAttrSynchronizable as String: kSecAttrSynchronizableAny]
            #expect(SecItemAdd(Self.item("any", any) as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd(Self.item("synced", [kSecAttrSynchronizable as String: true]) as CFDictionary, nil) == errSecSuccess)
            let (status, found) = Self.attributes(Self.search("any"))
            #expect(status == errSecSuccess)
            #expect(found?[kSecAttrSynchronizable as String] as? Int == 0)
            // A search without the key finds only items that do not synchronize; with Any, both.
            #expect(SecItemCopyMatching(Self.search("synced") as CFDictionary, nil) == errSecItemNotFound)
            var all = Self.search(nil, any)
            all[kSecMatchLimit as String] = kSecMatchLimitAll
            all[kSecReturnAttributes as String] = true
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(all as CFDictionary, &result) == errSecSuccess)
            #expect((result as? [Any])?.count == 2)
            // Any as a new value changes nothing; the update query with Any reaches the synchronized item.
            #expect(SecItemUpdate(Self.search("synced", any) as CFDictionary, any as CFDictionary) == errSecSuccess)
            #expect(Self.attributes(Self.search("synced", any)).1?[kSecAttrSynchronizable as String] as? Int == 1)
            #expect(SecItemDelete(Self.search(nil, any) as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching(Self.search(nil, any) as CFDictionary, nil) == errSecItemNotFound)
        }
    }

    /// `kSecMatchCaseInsensitive` and `kSecMatchSubjectContains` are ignored by a search (matching stays
    /// exact) and refused (-50) by an update's query and a delete.
    @Test(arguments: BoundaryTransport.allCases) func insensitiveMatchKeysPerCall(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            #expect(SecItemAdd(Self.item("Mixed") as CFDictionary, nil) == errSecSuccess)
            for key in [kSecMatchCaseInsensitive as String, kSecMatchSubjectContains as String] {
                let value: Any = key == kSecMatchCaseInsensitive as String ? true : "ix"
                #expect(SecItemCopyMatching(Self.search("Mixed", [key: value]) as CFDictionary, nil) == errSecSuccess)
                #expect(SecItemCopyMatching(Self.search("mixed", [key: value]) as CFDictionary, nil) == errSecItemNotFound)
                let label = [kSecAttrLabel as String: "L"]
                #expect(SecItemUpdate(Self.search("Mixed", [key: value]) as CFDictionary, label as CFDictionary) == errSecParam)
                #expect(SecItemDelete(Self.search("Mixed", [key: value]) as CFDictionary) == errSecParam)
            }
        }
    }

    /// macOS's own attributes of a password: invisible, negative, creator and type (four-character codes as
    /// numbers), and an internet password's security domain, stored and returned as given.
    @Test(arguments: BoundaryTransport.allCases) func macOSAttributesRoundTrip(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            let creator = 0x6170_706C  // 'appl'
            let type = 0x6E6F_7465  // 'note'
            let extra: [String: Any] = [
                kSecAttrIsInvisible as String: true, kSecAttrIsNegative as String: false,
                kSecAttrCreator as String: creator, kSecAttrType as String: type,
            ]
            #expect(SecItemAdd(Self.item("mac", extra) as CFDictionary, nil) == errSecSuccess)
            let found = Self.attributes(Self.search("mac")).1
            #expect(found?[kSecAttrIsInvisible as String] as? Int == 1)
            #expect(found?[kSecAttrIsNegative as String] as? Int == 0)
            #expect(found?[kSecAttrCreator as String] as? Int == creator)
            #expect(found?[kSecAttrType as String] as? Int == type)
            #expect(SecItemCopyMatching(Self.search("mac", [kSecAttrCreator as String: creator]) as CFDictionary, nil) == errSecSuccess)
            // As filters and new values of an update, and as filters of a delete.
            let retyped: [String: Any] = [kSecAttrType as String: type + 1, kSecAttrIsInvisible as String: false]
            #expect(SecItemUpdate(Self.search("mac", [kSecAttrCreator as String: creator]) as CFDictionary, retyped as CFDictionary) == errSecSuccess)
            #expect(Self.attributes(Self.search("mac")).1?[kSecAttrType as String] as? Int == type + 1)
            #expect(SecItemDelete(Self.search("mac", [kSecAttrType as String: type]) as CFDictionary) == errSecItemNotFound)
            #expect(
                SecItemDelete(Self.search("mac", [kSecAttrType as String: type + 1, kSecAttrIsInvisible as String: false]) as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching(Self.search("mac") as CFDictionary, nil) == errSecItemNotFound)

            let internet: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "files.example.com",
                kSecAttrSecurityDomain as String: "WORKGROUP", kSecAttrAccount as String: "me",
                kSecValueData as String: Data("pw".utf8),
            ]
            #expect(SecItemAdd(internet as CFDictionary, nil) == errSecSuccess)
            let domain: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword, kSecAttrSecurityDomain as String: "WORKGROUP",
                kSecReturnAttributes as String: true,
            ]
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(domain as CFDictionary, &result) == errSecSuccess)
            #expect((result as? [String: Any])?[kSecAttrSecurityDomain as String] as? String == "WORKGROUP")
            let domainQuery: [String: Any] = [kSecClass as String: kSecClassInternetPassword, kSecAttrSecurityDomain as String: "WORKGROUP"]
            #expect(SecItemUpdate(domainQuery as CFDictionary, [kSecAttrSecurityDomain as String: "HOME"] as CFDictionary) == errSecSuccess)
            #expect(SecItemDelete(domainQuery as CFDictionary) == errSecItemNotFound)
            var moved = domainQuery
            moved[kSecAttrSecurityDomain as String] = "HOME"
            #expect(SecItemDelete(moved as CFDictionary) == errSecSuccess)
            // A security domain is an internet password's attribute only.
            #expect(SecItemAdd(Self.item("domain", [kSecAttrSecurityDomain as String: "X"]) as CFDictionary, nil) == errSecNoSuchAttr)
        }
    }

    /// The deprecated "always" classes are still accepted and reported by their codes.
    @Test(arguments: BoundaryTransport.allCases) func deprecatedAlwaysClassesAreAccepted(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            for (account, protection, code) in [
                ("always", kSecAttrAccessibleAlways, "dk"), ("always-here", kSecAttrAccessibleAlwaysThisDeviceOnly, "dku"),
            ] {
                #expect(SecItemAdd(Self.item(account, [kSecAttrAccessible as String: protection]) as CFDictionary, nil) == errSecSuccess)
                #expect(Self.attributes(Self.search(account)).1?[kSecAttrAccessible as String] as? String == code)
                // As a filter, a new value and a delete filter.
                let byClass = Self.search(account, [kSecAttrAccessible as String: protection])
                #expect(SecItemCopyMatching(byClass as CFDictionary, nil) == errSecSuccess)
                let relabel = [kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock] as CFDictionary
                #expect(SecItemUpdate(byClass as CFDictionary, relabel) == errSecSuccess)
                #expect(Self.attributes(Self.search(account)).1?[kSecAttrAccessible as String] as? String == "ck")
                #expect(SecItemUpdate(Self.search(account) as CFDictionary, [kSecAttrAccessible as String: protection] as CFDictionary) == errSecSuccess)
                #expect(SecItemDelete(byClass as CFDictionary) == errSecSuccess)
            }
        }
    }
}
