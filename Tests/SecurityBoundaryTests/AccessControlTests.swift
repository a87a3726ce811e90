import Foundation
import Security
import Testing

// coffer-lint:disable-file delete-then-add, primary-key-incomplete: these tests send Apple's keychain bad dictionaries on purpose.

/// `SecAccessControl` as client code uses it: creation errors through `Unmanaged<CFError>`, storing it
/// with an item, getting it back, and the rules about it in queries (G9, G11, A4, U13).
@Suite(.timeLimit(.minutes(10))) struct AccessControlTests {
    @Test func refusedFlagsReportAnErrorThroughUnmanaged() throws {
        var error: Unmanaged<CFError>?
        let access = SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenUnlocked, [.or, .and], &error)
        #expect(access == nil)
        let cfError = try #require(error).takeRetainedValue()
        #expect(CFErrorGetCode(cfError) == Int(errSecParam))
        #expect(CFErrorGetDomain(cfError) as String == kCFErrorDomainOSStatus as String)
        let userInfo = CFErrorCopyUserInfo(cfError) as? [String: Any]
        #expect((userInfo?[NSLocalizedDescriptionKey] as? String)?.contains("errSecParam") == true)
        let swiftError = cfError as Error
        #expect((swiftError as NSError).code == -50)
    }

    @Test func creationRulesFollowApple() {
        var error: Unmanaged<CFError>?
        #expect(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [.biometryAny, .biometryCurrentSet], &error) == nil)
        #expect(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [.userPresence, .devicePasscode], nil) == nil)
        #expect(SecAccessControlCreateWithFlags(nil, "nonsense" as CFString, [], nil) == nil)
        #expect(SecAccessControlCreateWithFlags(nil, NSNumber(value: 1), [], nil) == nil)
        #expect(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [.userPresence, .applicationPassword], nil) != nil)
        #expect(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlock, [.biometryAny, .or, .devicePasscode], nil) != nil)
        let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil)
        #expect(CFGetTypeID(access) == SecAccessControlGetTypeID())
    }

    @Test func flagBitsAreApples() {
        #expect(SecAccessControlCreateFlags.userPresence.rawValue == 1 << 0)
        #expect(SecAccessControlCreateFlags.biometryAny.rawValue == 1 << 1)
        #expect(SecAccessControlCreateFlags.touchIDAny == .biometryAny)
        #expect(SecAccessControlCreateFlags.biometryCurrentSet.rawValue == 1 << 3)
        #expect(SecAccessControlCreateFlags.devicePasscode.rawValue == 1 << 4)
        #expect(SecAccessControlCreateFlags.companion.rawValue == 1 << 5)
        #expect(SecAccessControlCreateFlags.or.rawValue == 1 << 14)
        #expect(SecAccessControlCreateFlags.and.rawValue == 1 << 15)
        #expect(SecAccessControlCreateFlags.privateKeyUsage.rawValue == 1 << 30)
        #expect(SecAccessControlCreateFlags.applicationPassword.rawValue == 1 << 31)
    }

    /// Reading a `userPresence` item needs the person (§6.3), even for its attributes; with no passcode on the
    /// keychain there is nothing to prove presence with: LocalAuthentication's passcodeNotSet, which the
    /// keychain reports as errSecAuthFailed (§6.4). Skip leaves the item out.
    @Test(arguments: BoundaryTransport.allCases) func aUserPresenceItemIsStoredAndGuarded(transport: BoundaryTransport) throws {
        try withFreshKeychain(transport) {
            let access = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .userPresence, nil))
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "guarded",
                kSecValueData as String: Data("pw".utf8), kSecAttrAccessControl as String: access,
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            var found: CFTypeRef?
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "guarded",
                kSecReturnAttributes as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecAuthFailed)
            query[kSecUseAuthenticationUI as String] = kSecUseAuthenticationUIFail
            #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecInteractionNotAllowed)
            query[kSecUseAuthenticationUI as String] = kSecUseAuthenticationUISkip
            #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecItemNotFound)
            #expect(found == nil)
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecDuplicateItem)
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func accessControlRulesInQueries(transport: BoundaryTransport) throws {
        try withFreshKeychain(transport) {
            let access = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil))
            let base: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "rules",
                kSecValueData as String: Data("pw".utf8),
            ]
            // G9: kSecAttrAccessible together with kSecAttrAccessControl.
            var both = base
            both[kSecAttrAccessControl as String] = access
            both[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlocked
            #expect(SecItemAdd(both as CFDictionary, nil) == errSecParam)
            // G11: an access control that is not a SecAccessControl.
            var notAnObject = base
            notAnObject[kSecAttrAccessControl as String] = kSecAttrAccessibleWhenUnlocked
            #expect(SecItemAdd(notAnObject as CFDictionary, nil) == errSecParam)
            #expect(SecItemDelete(notAnObject as CFDictionary) == errSecParam)
            // A4: constraints on a synchronizable item (exactly kCFBooleanTrue).
            var synchronizable = base
            synchronizable[kSecAttrAccessControl as String] = access
            synchronizable[kSecAttrSynchronizable as String] = kCFBooleanTrue!
            #expect(SecItemAdd(synchronizable as CFDictionary, nil) == errSecParam)
            // U13: the same through SecItemUpdate.
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "rules",
                kSecAttrSynchronizable as String: kCFBooleanTrue!,
            ]
            let changes: [String: Any] = [kSecAttrAccessControl as String: access]
            #expect(SecItemUpdate(query as CFDictionary, changes as CFDictionary) == errSecParam)
        }
    }
}
