import Foundation
import Security
import Testing

/// Apple's statuses for the reference's rules on passwords (§3.2), seen through Apple's four functions.
@Suite(.timeLimit(.minutes(10))) struct PasswordRuleTests {
    private func password(_ account: String, service: String = "rules", data: String = "pw") -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: account, kSecValueData as String: Data(data.utf8),
        ]
    }

    private func search(_ account: String, _ extra: [String: Any] = [:]) -> [String: Any] {
        genericPasswordSearch(service: "rules", account: account, extra)
    }

    @Test(arguments: BoundaryTransport.allCases) func addThenDuplicateThenUpdateThenDelete(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            #expect(SecItemAdd(password("a") as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd(password("a", data: "other") as CFDictionary, nil) == errSecDuplicateItem)  // A1
            let changes = [kSecValueData as String: Data("new".utf8)]
            #expect(SecItemUpdate(search("a") as CFDictionary, changes as CFDictionary) == errSecSuccess)
            var data: CFTypeRef?
            #expect(SecItemCopyMatching(search("a", [kSecReturnData as String: true]) as CFDictionary, &data) == errSecSuccess)
            #expect(data as? Data == Data("new".utf8))
            #expect(SecItemDelete(search("a") as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching(search("a") as CFDictionary, nil) == errSecItemNotFound)  // C1
            #expect(SecItemDelete(search("a") as CFDictionary) == errSecItemNotFound)  // D3
            #expect(SecItemUpdate(search("a") as CFDictionary, changes as CFDictionary) == errSecItemNotFound)  // U9
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func notFoundLeavesTheResultUntouched(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            var result: CFTypeRef? = NSString(string: "untouched")
            #expect(SecItemCopyMatching(search("missing", [kSecReturnData as String: true]) as CFDictionary, &result) == errSecItemNotFound)
            #expect(result as? String == "untouched")
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func malformedQueriesGetApplesStatuses(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            // G2: no class.
            #expect(SecItemAdd([kSecAttrAccount as String: "x"] as CFDictionary, nil) == errSecParam)
            // G3: an unknown class string.
            #expect(SecItemCopyMatching([kSecClass as String: "apls"] as CFDictionary, nil) == errSecNoSuchClass)
            // G4: an attribute of another class.
            var wrongAttribute = password("x")
            wrongAttribute[kSecAttrServer as String] = "example.com"
            #expect(SecItemAdd(wrongAttribute as CFDictionary, nil) == errSecNoSuchAttr)
            // G7: a return flag that is a number, not a boolean.
            #expect(SecItemCopyMatching(search("x", [kSecReturnData as String: NSNumber(value: 1)]) as CFDictionary, nil) == errSecParam)
            // A3: the secret must be data.
            var stringSecret = password("x")
            stringSecret[kSecValueData as String] = "not data"
            #expect(SecItemAdd(stringSecret as CFDictionary, nil) == errSecParam)
            // U1: no return keys in an update's query; U4: no non-attribute keys in its changes.
            let changes = [kSecAttrLabel as String: "label"]
            #expect(SecItemUpdate(search("x", [kSecReturnData as String: true]) as CFDictionary, changes as CFDictionary) == errSecParam)
            #expect(SecItemUpdate(search("x") as CFDictionary, [kSecReturnData as String: true] as CFDictionary) == errSecNoSuchAttr)
            // D1: no match keys in a delete, and no limit but All.
            #expect(SecItemDelete(search("x", [kSecMatchLimit as String: kSecMatchLimitOne]) as CFDictionary) == errSecParam)
            #expect(SecItemDelete(search("x", [kSecMatchCaseInsensitive as String: true]) as CFDictionary) == errSecParam)
            // G5: a value of the wrong type.
            #expect(SecItemCopyMatching(search("x", [kSecAttrLabel as String: Date()]) as CFDictionary, nil) == errSecParam)
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func deleteWithoutLimitRemovesEveryMatch(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            #expect(SecItemAdd(password("one") as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd(password("two") as CFDictionary, nil) == errSecSuccess)
            let everyRule = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "rules"]
            #expect(SecItemDelete(everyRule as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching(everyRule as CFDictionary, nil) == errSecItemNotFound)
        }
    }

    /// D1: macOS-flavoured code deletes with kSecMatchLimitAll; Apple accepts it and deletes every match.
    @Test(arguments: BoundaryTransport.allCases) func deleteWithMatchLimitAllRemovesEveryMatch(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            #expect(SecItemAdd(password("one") as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd(password("two") as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd(password("other", service: "kept") as CFDictionary, nil) == errSecSuccess)
            let everyRule: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "rules",
                kSecMatchLimit as String: kSecMatchLimitAll,
            ]
            #expect(SecItemDelete(everyRule as CFDictionary) == errSecSuccess)
            #expect(SecItemDelete(everyRule as CFDictionary) == errSecItemNotFound)
            let kept = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "kept"]
            #expect(SecItemCopyMatching(kept as CFDictionary, nil) == errSecSuccess)
        }
    }

    /// A11: a synchronizable item with a ThisDeviceOnly class is stored as asked and found again.
    @Test(arguments: BoundaryTransport.allCases) func synchronizableThisDeviceOnlyItemIsStored(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            var add = password("device")
            add[kSecAttrSynchronizable as String] = true
            add[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            var found: CFTypeRef?
            let query = search(
                "device",
                [
                    kSecAttrSynchronizable as String: kSecAttrSynchronizableAny, kSecReturnAttributes as String: true,
                ])
            #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess)
            let item = found as? [String: Any]
            #expect(item?[kSecAttrSynchronizable as String] as? Int == 1)
            #expect(item?[kSecAttrAccessible as String] as? String == "aku")
            // Not synchronizable is the default of a search: it is not found without asking.
            #expect(SecItemCopyMatching(search("device") as CFDictionary, nil) == errSecItemNotFound)
            // A delete that names the flag reaches it.
            let synced = search("device", [kSecAttrSynchronizable as String: true])
            #expect(SecItemDelete(synced as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching(synced as CFDictionary, nil) == errSecItemNotFound)
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func internetPasswordAttributesComeBackTyped(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            let add: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "example.com",
                kSecAttrProtocol as String: kSecAttrProtocolHTTPS, kSecAttrPort as String: 8443,
                kSecAttrAuthenticationType as String: kSecAttrAuthenticationTypeHTMLForm,
                kSecAttrAccount as String: "web", kSecValueData as String: Data("pw".utf8),
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            var found: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "example.com",
                kSecReturnAttributes as String: true, kSecReturnData as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess)
            let item = found as? [String: Any]
            #expect(item?[kSecAttrPort as String] as? Int == 8443)
            #expect(item?[kSecAttrProtocol as String] as? String == "htps")
            #expect(item?[kSecAttrAuthenticationType as String] as? String == "form")
            #expect(item?[kSecAttrAccessible as String] as? String == "ck")
            #expect(item?[kSecValueData as String] as? Data == Data("pw".utf8))
        }
    }

    @Test func errorMessagesAreNeverNil() {
        #expect((SecCopyErrorMessageString(errSecItemNotFound, nil) as String?)?.isEmpty == false)
        #expect((SecCopyErrorMessageString(errSecWrPerm, nil) as String?)?.contains("errSecWrPerm") == true)
        #expect(SecCopyErrorMessageString(-1_234_567, nil) as String? == "OSStatus -1234567")
    }

    @Test func randomBytesComeFromTheSystemGenerator() {
        var bytes = [UInt8](repeating: 0, count: 37)
        #expect(SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes) == errSecSuccess)
        var more = [UInt8](repeating: 0, count: 37)
        #expect(SecRandomCopyBytes(nil, more.count, &more) == errSecSuccess)
        #expect(bytes != more)
        #expect(bytes.contains { $0 != 0 })
    }
}
