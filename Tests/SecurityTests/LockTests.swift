import CofferTestSupport
import Foundation
import Security
import Testing

/// The lock states through macOS's lock-control names (reference §4.2, rules G16, A2, C5, U12), in process
/// and through the daemon.
@Suite(.timeLimit(.minutes(10))) struct LockTests {
    private let unlocked = kSecUnlockStateStatus | kSecReadPermStatus | kSecWritePermStatus
    private let locked = kSecReadPermStatus | kSecWritePermStatus

    @Test(arguments: Transport.allCases) func keychainWithPasscodeStartsBeforeFirstUnlock(transport: Transport) throws {
        try withFreshKeychain(passcode: "1234", transport: transport) {
            #expect(keychainStatus() == locked)
            #expect(SecItemAdd(password("a") as CFDictionary, nil) == errSecInteractionNotAllowed)
            #expect(SecItemAdd(password("c", accessible: kSecAttrAccessibleAfterFirstUnlock) as CFDictionary, nil) == errSecInteractionNotAllowed)
            #expect(SecItemAdd(password("d", accessible: kSecAttrAccessibleAlwaysThisDeviceOnly) as CFDictionary, nil) == errSecSuccess)
        }
    }

    @Test(arguments: Transport.allCases) func lockedKeychainRefusesClassAReadsAddsAndUpdatesButDeletes(transport: Transport) throws {
        try withFreshKeychain(passcode: "1234", transport: transport) {
            #expect(unlock("1234") == errSecSuccess)
            #expect(keychainStatus() == unlocked)
            #expect(SecItemAdd(password("a") as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd(password("c", accessible: kSecAttrAccessibleAfterFirstUnlock) as CFDictionary, nil) == errSecSuccess)

            #expect(SecKeychainLock(nil) == errSecSuccess)
            #expect(keychainStatus() == locked)
            let returnData = [kSecReturnData as String: true]
            #expect(SecItemCopyMatching(search("a", returnData) as CFDictionary, nil) == errSecInteractionNotAllowed)  // G16
            #expect(SecItemCopyMatching(search("a") as CFDictionary, nil) == errSecInteractionNotAllowed)  // §4.2: metadata too
            #expect(SecItemAdd(password("a2") as CFDictionary, nil) == errSecInteractionNotAllowed)
            #expect(SecItemAdd(password("a") as CFDictionary, nil) == errSecInteractionNotAllowed)  // A2: before the duplicate check
            let changes = [kSecValueData as String: Data("new".utf8)]
            #expect(SecItemUpdate(search("a") as CFDictionary, changes as CFDictionary) == errSecInteractionNotAllowed)  // U12

            // After first unlock, class C stays readable while locked.
            var data: CFTypeRef?
            #expect(SecItemCopyMatching(search("c", returnData) as CFDictionary, &data) == errSecSuccess)
            #expect(data as? Data == Data("pw".utf8))

            #expect(SecItemDelete(search("a") as CFDictionary) == errSecSuccess)  // delete needs no class key

            #expect(unlock("1234") == errSecSuccess)
            #expect(SecItemCopyMatching(search("a") as CFDictionary, nil) == errSecItemNotFound)
        }
    }

    @Test(arguments: Transport.allCases) func wrongPasscodeIsAuthFailed(transport: Transport) throws {
        try withFreshKeychain(passcode: "1234", transport: transport) {
            #expect(unlock("9999") == errSecAuthFailed)
            #expect(keychainStatus() == locked)
            #expect(unlock("1234") == errSecSuccess)
            #expect(keychainStatus() == unlocked)
        }
    }

    /// While unlocking is throttled after five wrong passcodes, an attempt is refused unchecked — even with
    /// the right passcode — with errSecInteractionNotAllowed ("not now"), not errSecAuthFailed.
    @Test(arguments: Transport.allCases) func throttledUnlockIsInteractionNotAllowed(transport: Transport) throws {
        try withFreshKeychain(passcode: "1234", transport: transport) {
            for _ in 1...5 { #expect(unlock("0000") == errSecAuthFailed) }
            #expect(unlock("1234") == errSecInteractionNotAllowed)
            #expect(unlock("0000") == errSecInteractionNotAllowed)
            #expect(keychainStatus() == locked)
        }
    }

    @Test(arguments: Transport.allCases) func unlockWithoutAPasswordCannotShowADialog(transport: Transport) throws {
        try withFreshKeychain(passcode: "1234", transport: transport) {
            #expect(SecKeychainUnlock(nil, 0, nil, false) == errSecInteractionNotAllowed)
            #expect(SecKeychainUnlock(nil, 4, "1234", false) == errSecInteractionNotAllowed)
            #expect(keychainStatus() == locked)
        }
    }

    @Test(arguments: Transport.allCases) func keychainWithoutPasscodeIsAlwaysUnlocked(transport: Transport) throws {
        try withFreshKeychain(transport: transport) {
            #expect(keychainStatus() == unlocked)
            #expect(SecKeychainLock(nil) == errSecSuccess)
            #expect(keychainStatus() == unlocked)
            #expect(SecItemAdd(password("a") as CFDictionary, nil) == errSecSuccess)
            #expect(unlock("1234") == errSecParam)  // no passcode to check
        }
    }
}
