import Crypto
import Foundation
import KeychainModel
import Keystore
import Testing

@Suite("Lock states", .timeLimit(.minutes(10)))
struct LockStateTests {
    private let aClasses: [ProtectionClass] = [.whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly]
    private let cClasses: [ProtectionClass] = [.afterFirstUnlock, .afterFirstUnlockThisDeviceOnly]
    private let dClasses: [ProtectionClass] = [.always, .alwaysThisDeviceOnly]

    @Test func keychainWithoutPasscodeIsAlwaysUnlocked() throws {
        let keystore = try Keystore.open(folder: makeTemporaryFolder())
        #expect(keystore.lockState == .unlocked)
        keystore.lock()
        #expect(keystore.lockState == .unlocked)
        for protection in ProtectionClass.allCases where protection != .whenPasscodeSetThisDeviceOnly {
            _ = try keystore.metadataKey(for: protection)
        }
    }

    @Test func akpuIsMissingWithoutPasscode() throws {
        let keystore = try Keystore.open(folder: makeTemporaryFolder())
        #expect(throws: KeystoreError.classMissing(.whenPasscodeSetThisDeviceOnly)) {
            try keystore.wrapItemKey(SymmetricKey(size: .bits256), protection: .whenPasscodeSetThisDeviceOnly)
        }
        #expect(KeystoreError.classMissing(.whenPasscodeSetThisDeviceOnly).status == .notAvailable)
    }

    @Test func newProcessWithPasscodeStartsBeforeFirstUnlock() throws {
        let (_, folder) = try keystoreWithPasscode()
        let reopened = try Keystore.open(folder: folder)
        #expect(reopened.lockState == .beforeFirstUnlock)
        for protection in aClasses + cClasses {
            #expect(throws: KeystoreError.classUnavailable(protection)) { try reopened.metadataKey(for: protection) }
        }
        for protection in dClasses { _ = try reopened.metadataKey(for: protection) }
    }

    @Test func unlockThenLockDropsOnlyAClassKeys() throws {
        let (_, folder) = try keystoreWithPasscode()
        let keystore = try Keystore.open(folder: folder)
        try keystore.unlock(passcode: secret("1234"))
        #expect(keystore.lockState == .unlocked)
        for protection in ProtectionClass.allCases { _ = try keystore.metadataKey(for: protection) }

        keystore.lock()
        #expect(keystore.lockState == .locked)
        for protection in aClasses {
            #expect(throws: KeystoreError.classUnavailable(protection)) { try keystore.metadataKey(for: protection) }
        }
        for protection in cClasses + dClasses { _ = try keystore.metadataKey(for: protection) }

        try keystore.unlock(passcode: secret("1234"))
        #expect(keystore.lockState == .unlocked)
        _ = try keystore.metadataKey(for: .whenUnlocked)
    }

    @Test func classUnavailableMapsToInteractionNotAllowed() {
        #expect(KeystoreError.classUnavailable(.whenUnlocked).status.code == -25308)
    }

    @Test func lockStateChangesAreStreamed() async throws {
        let (keystore, _) = try keystoreWithPasscode()
        let stream = keystore.lockStateChanges()
        keystore.lock()
        try keystore.unlock(passcode: secret("1234"))
        var seen: [LockState] = []
        for await state in stream {
            seen.append(state)
            if seen.count == 3 { break }
        }
        #expect(seen == [.unlocked, .locked, .unlocked])
    }

    @Test func unlockWithoutPasscodeIsRefused() throws {
        let keystore = try Keystore.open(folder: makeTemporaryFolder())
        #expect(throws: KeystoreError.noPasscodeSet) { try keystore.unlock(passcode: secret("1234")) }
    }
}
