import Foundation
import Security
import Testing

/// What macOS's SecItem functions do to a dictionary only macOS code sends, before their keychain sees it
/// (Apple's `SecItemCategorizeQuery` and `SecItemCopyTranslatedAttributes` in
/// `OSX/libsecurity_keychain/lib/SecItem.cpp`); rows of docs/MacOSBranch.md, on both transports.
@Suite(.timeLimit(.minutes(10))) struct MacOSShimTests {
    private static let service = "shim"
    private static var dataProtection: [String: Any] { [kSecUseDataProtectionKeychain as String: true] }

    private static func item(_ account: String, _ extra: [String: Any] = [:]) -> [String: Any] {
        genericPassword(service: service, account: account, data: Data("pw-\(account)".utf8), extra)
    }

    private static func search(_ account: String? = nil, _ extra: [String: Any] = [:]) -> [String: Any] {
        genericPasswordSearch(service: service, account: account, extra)
    }

    private static func count(_ extra: [String: Any] = [:]) -> Int {
        var result: CFTypeRef?
        let query = search(nil, [kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true])
            .merging(extra) { _, new in new }
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return 0 }
        return (result as? [Any])?.count ?? 0
    }

    private static var defaultKeychain: SecKeychain {
        var keychain: SecKeychain?
        SecKeychainCopyDefault(&keychain)
        return keychain!
    }

    /// The constants have Apple's values; `kSecAttrNoLegacy` is `kSecUseDataProtectionKeychain`'s key.
    @Test func constantsHaveApplesValues() {
        #expect(kSecUseKeychain as String == "u_Keychain")
        #expect(kSecAttrAccess as String == "acls")
        #expect(kSecAttrNoLegacy as String == kSecUseDataProtectionKeychain as String)
        #expect(kSecMatchDiacriticInsensitive as String == "m_DiacriticInsensitive")
        #expect(kSecMatchWidthInsensitive as String == "m_WidthInsensitive")
        #expect(kSecMatchSubjectStartsWith as String == "m_SubjectStartsWith")
        #expect(kSecMatchSubjectEndsWith as String == "m_SubjectEndsWith")
        #expect(kSecMatchSubjectWholeString as String == "m_SubjectWholeString")
    }

    /// `kSecUseKeychain` with the default keychain reaches the same items as no keychain, in every call; a
    /// value that is not a `SecKeychain` is -50 where the file keychain may serve the call (no
    /// `kSecUseDataProtectionKeychain`), and removed unseen where only the data-protection keychain does.
    @Test(arguments: BoundaryTransport.allCases) func useKeychainPerCall(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            let keychain: [String: Any] = [kSecUseKeychain as String: Self.defaultKeychain]
            #expect(SecItemAdd(Self.item("kc", keychain) as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemCopyMatching(Self.search("kc") as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemCopyMatching(Self.search("kc", keychain) as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemUpdate(Self.search("kc", keychain) as CFDictionary, [kSecAttrLabel as String: "L"] as CFDictionary) == errSecSuccess)
            #expect(SecItemDelete(Self.search("kc", keychain) as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching(Self.search("kc") as CFDictionary, nil) == errSecItemNotFound)

            let wrong: [String: Any] = [kSecUseKeychain as String: "login.keychain"]
            #expect(SecItemAdd(Self.item("wrong", wrong) as CFDictionary, nil) == errSecParam)
            #expect(SecItemCopyMatching(Self.search(nil, wrong) as CFDictionary, nil) == errSecParam)
            #expect(SecItemAdd(Self.item("wrong", wrong.merging(Self.dataProtection) { _, new in new }) as CFDictionary, nil) == errSecSuccess)
        }
    }

    /// `kSecMatchSearchList` of `SecKeychain`s searches the one keychain; it must be an array.
    @Test(arguments: BoundaryTransport.allCases) func searchListOfKeychains(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            #expect(SecItemAdd(Self.item("one") as CFDictionary, nil) == errSecSuccess)
            let list: [String: Any] = [kSecMatchSearchList as String: [Self.defaultKeychain]]
            var result: CFTypeRef?
            #expect(
                SecItemCopyMatching(Self.search("one", list.merging([kSecReturnData as String: true]) { _, new in new }) as CFDictionary, &result)
                    == errSecSuccess)
            #expect(result as? Data == Data("pw-one".utf8))
            #expect(SecItemUpdate(Self.search("one", list) as CFDictionary, [kSecAttrLabel as String: "L"] as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching(Self.search("one", [kSecMatchSearchList as String: Self.defaultKeychain]) as CFDictionary, nil) == errSecParam)
            #expect(SecItemDelete(Self.search("one", list) as CFDictionary) == errSecSuccess)
            #expect(Self.count() == 0)
        }
    }

    /// A legacy `SecAccess` is dropped from an add, as macOS's data-protection keychain drops it; next to
    /// `kSecAttrAccessControl` without `kSecUseDataProtectionKeychain` no keychain can serve the add (-50);
    /// with the flag true the `SecAccess` is dropped and the access control kept.
    @Test(arguments: BoundaryTransport.allCases) func legacyAccessNextToAccessControl(transport: BoundaryTransport) throws {
        try withFreshKeychain(transport) {
            var access: SecAccess?
            #expect(SecAccessCreate("shim item" as CFString, nil, &access) == errSecSuccess)
            let legacy: [String: Any] = [kSecAttrAccess as String: try #require(access)]
            #expect(CFGetTypeID(access) == SecAccessGetTypeID())
            #expect(SecItemAdd(Self.item("acl", legacy) as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemCopyMatching(Self.search("acl") as CFDictionary, nil) == errSecSuccess)
            let relabel = legacy.merging([kSecAttrLabel as String: "L"]) { _, new in new }
            #expect(SecItemUpdate(Self.search("acl") as CFDictionary, relabel as CFDictionary) == errSecSuccess)
            #expect(SecItemAdd(Self.item("bad", [kSecAttrAccess as String: "everyone"]) as CFDictionary, nil) == errSecParam)

            let control = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [], nil))
            let both = legacy.merging([kSecAttrAccessControl as String: control]) { _, new in new }
            #expect(SecItemAdd(Self.item("both", both) as CFDictionary, nil) == errSecParam)
            #expect(SecItemCopyMatching(Self.search("both") as CFDictionary, nil) == errSecItemNotFound)
            #expect(SecItemAdd(Self.item("both", both.merging(Self.dataProtection) { _, new in new }) as CFDictionary, nil) == errSecSuccess)
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(Self.search("both", [kSecReturnAttributes as String: true]) as CFDictionary, &result) == errSecSuccess)
            #expect((result as? [String: Any])?[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlocked as String)
        }
    }

    /// Keys only the file keychain has, next to ones only the data-protection keychain has, without the
    /// flag: -50 (a true `kSecAttrSynchronizable` with `kSecUseKeychain`); with the flag true, accepted.
    @Test(arguments: BoundaryTransport.allCases) func fileAndDataProtectionKeysTogether(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            let mixed: [String: Any] = [kSecUseKeychain as String: Self.defaultKeychain, kSecAttrSynchronizable as String: true]
            #expect(SecItemAdd(Self.item("mixed", mixed) as CFDictionary, nil) == errSecParam)
            #expect(SecItemCopyMatching(Self.search("mixed", mixed) as CFDictionary, nil) == errSecParam)
            #expect(SecItemDelete(Self.search("mixed", mixed) as CFDictionary) == errSecParam)
            let flagged = mixed.merging(Self.dataProtection) { _, new in new }
            #expect(SecItemAdd(Self.item("mixed", flagged) as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemCopyMatching(Self.search("mixed", flagged) as CFDictionary, nil) == errSecSuccess)
            // `kSecAttrSynchronizableAny` is not "true" to macOS's router: it goes with kSecUseKeychain.
            let any: [String: Any] = [kSecUseKeychain as String: Self.defaultKeychain, kSecAttrSynchronizable as String: kSecAttrSynchronizableAny]
            #expect(SecItemCopyMatching(Self.search("mixed", any) as CFDictionary, nil) == errSecSuccess)
            // The false flag with a sharing group: -50, as on macOS.
            let sharing: [String: Any] = [kSecUseDataProtectionKeychain as String: false, "ggrp": "group"]
            #expect(SecItemAdd(Self.item("shared", sharing) as CFDictionary, nil) == errSecParam)
        }
    }

    /// macOS removes the `kSecMatch…` keys from adds, updates and deletes and the `kSecReturn…` keys and
    /// `kSecValueData` from update and delete queries: from macOS code (which says
    /// `kSecUseDataProtectionKeychain`) they are accepted; from code that does not, iOS's -50 stands.
    @Test(arguments: BoundaryTransport.allCases) func matchAndReturnKeysOutsideSearches(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            let limitOne: [String: Any] = [kSecMatchLimit as String: kSecMatchLimitOne]
            #expect(SecItemAdd(Self.item("a", limitOne) as CFDictionary, nil) == errSecParam)
            #expect(SecItemAdd(Self.item("a", limitOne.merging(Self.dataProtection) { _, new in new }) as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd(Self.item("b", Self.dataProtection) as CFDictionary, nil) == errSecSuccess)
            #expect(Self.count() == 2)

            let extra: [String: Any] = [
                kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnData as String: true,
                kSecValueData as String: Data("ignored".utf8), kSecMatchCaseInsensitive as String: true,
            ]
            let label = [kSecAttrLabel as String: "L"] as CFDictionary
            #expect(SecItemUpdate(Self.search(nil, extra) as CFDictionary, label) == errSecParam)
            #expect(SecItemUpdate(Self.search(nil, extra.merging(Self.dataProtection) { _, new in new }) as CFDictionary, label) == errSecSuccess)
            #expect(Self.count([kSecAttrLabel as String: "L"]) == 2)

            // A delete with kSecMatchLimitOne deletes every match on macOS: the limit is removed, not applied.
            #expect(SecItemDelete(Self.search(nil, limitOne) as CFDictionary) == errSecParam)
            #expect(SecItemDelete(Self.search(nil, limitOne.merging(Self.dataProtection) { _, new in new }) as CFDictionary) == errSecSuccess)
            #expect(Self.count() == 0)
        }
    }

    /// macOS's other match keys: ignored by a search (matching stays exact), refused (-50) by an add, an
    /// update's query or a delete, whether or not the call says `kSecUseDataProtectionKeychain`.
    @Test(arguments: BoundaryTransport.allCases) func macOSOnlyMatchKeysPerCall(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            #expect(SecItemAdd(Self.item("Zoë") as CFDictionary, nil) == errSecSuccess)
            let keys = [
                kSecMatchDiacriticInsensitive, kSecMatchWidthInsensitive, kSecMatchSubjectStartsWith,
                kSecMatchSubjectEndsWith, kSecMatchSubjectWholeString,
            ]
            for key in keys {
                let value: Any = key == kSecMatchDiacriticInsensitive || key == kSecMatchWidthInsensitive ? true : "Zo"
                for flag in [[:], Self.dataProtection] as [[String: Any]] {
                    let match = ([key as String: value] as [String: Any]).merging(flag) { _, new in new }
                    #expect(SecItemCopyMatching(Self.search("Zoë", match) as CFDictionary, nil) == errSecSuccess)
                    #expect(SecItemCopyMatching(Self.search("Zoe", match) as CFDictionary, nil) == errSecItemNotFound)
                    #expect(SecItemAdd(Self.item("new", match) as CFDictionary, nil) == errSecParam)
                    #expect(SecItemUpdate(Self.search("Zoë", match) as CFDictionary, [kSecAttrLabel as String: "L"] as CFDictionary) == errSecParam)
                    #expect(SecItemDelete(Self.search("Zoë", match) as CFDictionary) == errSecParam)
                }
            }
            #expect(Self.count() == 1)
        }
    }

    /// macOS stops `kSecAttrModificationDate` from being a filter on the data-protection route (code passes
    /// a result's attributes back as a query); code that does not say so keeps iOS's exact filter.
    @Test(arguments: BoundaryTransport.allCases) func modificationDateIsNotAFilterForMacOSCode(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            #expect(SecItemAdd(Self.item("dated") as CFDictionary, nil) == errSecSuccess)
            let stale: [String: Any] = [kSecAttrModificationDate as String: Date(timeIntervalSinceReferenceDate: 0)]
            #expect(SecItemCopyMatching(Self.search("dated", stale) as CFDictionary, nil) == errSecItemNotFound)
            let flagged = stale.merging(Self.dataProtection) { _, new in new }
            #expect(SecItemCopyMatching(Self.search("dated", flagged) as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemDelete(Self.search("dated", flagged) as CFDictionary) == errSecSuccess)
        }
    }
}
