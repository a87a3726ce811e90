import Foundation
import Security
import Testing

/// Apple-style client code, written the ways real apps write it, must compile against `Security` alone
/// and get Apple's results. Each test is one common spelling.
@Suite(.timeLimit(.minutes(10))) struct QuerySpellingTests {
    @Test(arguments: BoundaryTransport.allCases) func stringKeyedDictionaryLiteralRoundTrips(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "com.example.mail",
                kSecAttrAccount as String: "alice",
                kSecValueData as String: "hunter2".data(using: .utf8)!,
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)

            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "com.example.mail",
                kSecAttrAccount as String: "alice",
                kSecReturnData as String: true,
                kSecMatchLimit as String: kSecMatchLimitOne,
            ]
            var item: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess)
            #expect(item as? Data == Data("hunter2".utf8))
            #expect(String(data: item as! Data, encoding: .utf8) == "hunter2")
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func nsDictionaryLiteralKeyedByConstants(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            let add =
                [
                    kSecClass: kSecClassGenericPassword,
                    kSecAttrAccount: "bob",
                    kSecValueData: Data("pw".utf8),
                ] as NSDictionary
            #expect(SecItemAdd(add, nil) == errSecSuccess)

            var result: CFTypeRef?
            let status = SecItemCopyMatching(
                [kSecClass: kSecClassGenericPassword, kSecAttrAccount: "bob", kSecReturnData: true] as CFDictionary,
                &result)
            #expect(status == errSecSuccess)
            #expect(result as? Data == Data("pw".utf8))
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func cfStringKeyedDictionaryPassesAsCFDictionary(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            let add: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecAttrAccount: "carol", kSecValueData: Data("x".utf8),
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let query: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrAccount: "carol"]
            #expect(SecItemCopyMatching(query as CFDictionary, nil) == errSecSuccess)
        }
    }

    /// The pattern from Apple DTS's "SecItem: Pitfalls and Best Practices": one mutable dictionary reused
    /// for a search, an add and then a second add.
    @Test(arguments: BoundaryTransport.allCases) func mutableDictionaryReusedAcrossCalls(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            var copyResult: CFTypeRef? = nil
            let query =
                [
                    kSecClass: kSecClassGenericPassword,
                    kSecAttrService: "AYS",
                    kSecAttrAccount: "mrgumby",
                    kSecAttrGeneric: Data("SecItemHints".utf8),
                ] as NSMutableDictionary
            #expect(SecItemCopyMatching(query, &copyResult) == errSecItemNotFound)
            #expect(copyResult == nil)

            query[kSecValueData] = Data("opendoor".utf8)
            #expect(SecItemAdd(query, nil) == errSecSuccess)

            // Only service and account make an item unique: a different kSecAttrGeneric still collides.
            query[kSecAttrGeneric] = Data("other".utf8)
            #expect(SecItemAdd(query, nil) == errSecDuplicateItem)

            query.removeObject(forKey: kSecValueData)
            query.removeObject(forKey: kSecAttrGeneric)
            query[kSecReturnAttributes] = kCFBooleanTrue
            #expect(SecItemCopyMatching(query, &copyResult) == errSecSuccess)
            let attributes = copyResult as? NSDictionary
            #expect(attributes?[kSecAttrAccount] as? String == "mrgumby")
            #expect(attributes?[kSecAttrGeneric] as? Data == Data("SecItemHints".utf8))
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func resultThroughWithUnsafeMutablePointer(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "dave",
                kSecValueData as String: Data("secret".utf8),
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "dave",
                kSecReturnData as String: kCFBooleanTrue!,
            ]
            var result: AnyObject?
            let status = withUnsafeMutablePointer(to: &result) {
                SecItemCopyMatching(query as CFDictionary, UnsafeMutablePointer($0))
            }
            #expect(status == noErr)
            #expect(result as? Data == Data("secret".utf8))
        }
    }

    /// `kCFBooleanTrue` is a `CFBoolean!`: put into `Any` without `!` it is an optional, and still counts as true.
    @Test(arguments: BoundaryTransport.allCases) func implicitlyUnwrappedBooleanInsideAny(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "erin",
                kSecValueData as String: Data("v".utf8), kSecReturnData as String: kCFBooleanTrue as Any,
            ]
            var added: CFTypeRef?
            #expect(SecItemAdd(add as CFDictionary, &added) == errSecSuccess)
            #expect(added as? Data == Data("v".utf8))

            let query =
                [
                    kSecClass: kSecClassGenericPassword, kSecAttrAccount: "erin", kSecReturnAttributes: kCFBooleanTrue as Any,
                ] as NSDictionary
            var found: CFTypeRef?
            #expect(SecItemCopyMatching(query, &found) == errSecSuccess)
            #expect((found as? [String: Any])?[kSecAttrAccount as String] as? String == "erin")
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func resultsCastEveryWay(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            for account in ["one", "two"] {
                let add: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "casts",
                    kSecAttrAccount as String: account, kSecValueData as String: Data(account.utf8),
                ]
                #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            }
            func copy(_ extra: [String: Any]) -> (OSStatus, CFTypeRef?) {
                var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "casts"]
                query.merge(extra) { _, new in new }
                var result: CFTypeRef?
                let status = SecItemCopyMatching(query as CFDictionary, &result)
                return (status, result)
            }

            let (attributesStatus, attributes) = copy([
                kSecAttrAccount as String: "one", kSecReturnAttributes as String: true,
            ])
            #expect(attributesStatus == errSecSuccess)
            let dictionary = attributes as? [String: Any]
            #expect(dictionary?[kSecAttrAccount as String] as? String == "one")
            #expect(dictionary?[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlocked as String)
            #expect(dictionary?[kSecAttrCreationDate as String] is Date)
            #expect(dictionary?[kSecValueData as String] == nil)
            #expect((attributes as? NSDictionary)?[kSecAttrService] as? String == "casts")
            #expect((attributes as? [String: AnyObject])?[kSecAttrAccount as String] as? String == "one")

            let (allStatus, all) = copy([
                kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
                kSecReturnData as String: true,
            ])
            #expect(allStatus == errSecSuccess)
            let items = all as? [[String: Any]]
            #expect(items?.count == 2)
            let accounts = Set(items?.compactMap { $0[kSecAttrAccount as String] as? String } ?? [])
            #expect(accounts == ["one", "two"])
            #expect(items?.allSatisfy { $0[kSecValueData as String] is Data } == true)

            let (dataStatus, datas) = copy([kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnData as String: true])
            #expect(dataStatus == errSecSuccess)
            #expect(Set(datas as? [Data] ?? []) == [Data("one".utf8), Data("two".utf8)])

            // Without kSecMatchLimit a search returns one item, not an array (§2.3).
            let (oneStatus, one) = copy([kSecReturnData as String: true])
            #expect(oneStatus == errSecSuccess)
            #expect(one as? Data != nil)
            #expect(one as? [Data] == nil)
        }
    }

    @Test func cfTypeVocabularyCompiles() {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
        let object: CFTypeRef = query as CFDictionary
        #expect(CFGetTypeID(object) == CFDictionaryGetTypeID())
        let legacyString: CFStringRef = kSecAttrAccount
        let legacyNumber: CFNumberRef = NSNumber(value: 42)
        let anything: CFTypeRef = legacyString
        #expect(CFGetTypeID(anything) == CFStringGetTypeID())
        #expect(CFGetTypeID(legacyNumber) == CFNumberGetTypeID())
        #expect(CFGetTypeID(kCFBooleanTrue) == CFBooleanGetTypeID())
        #expect(CFGetTypeID(Data() as CFData) == CFDataGetTypeID())
        #expect(CFGetTypeID([1, 2] as CFArray) == CFArrayGetTypeID())
        #expect(CFBooleanGetValue(kCFBooleanTrue) && !CFBooleanGetValue(kCFBooleanFalse))
        let flags: CFOptionFlags = SecAccessControlCreateFlags.userPresence.rawValue
        #expect(flags == 1)
        let allocator: CFAllocator? = kCFAllocatorDefault
        #expect(allocator == nil)
    }
}
