import Crypto
import Foundation
import KeychainModel
import Keystore
import Testing

@Suite("Passcode set, change, remove", .timeLimit(.minutes(10)))
struct PasscodeTests {
    @Test func passcodeShorterThanFourCharactersIsRefused() throws {
        let keystore = try Keystore.open(folder: makeTemporaryFolder())
        #expect(throws: KeystoreError.passcodeTooShort(minimum: 4)) {
            try keystore.setPasscode(secret("123"), kdf: .insecureForTesting)
        }
        #expect(!keystore.isPasscodeSet)
        // Four characters, counted as Unicode scalars rather than bytes.
        try keystore.setPasscode(secret("äöüß"), kdf: .insecureForTesting)
        #expect(keystore.isPasscodeSet)
    }

    @Test func settingTwiceIsRefused() throws {
        let (keystore, _) = try keystoreWithPasscode()
        #expect(throws: KeystoreError.passcodeAlreadySet) { try keystore.setPasscode(secret("5678"), kdf: .insecureForTesting) }
    }

    @Test func itemKeysWrappedBeforeSetStayUnwrappable() throws {
        let keystore = try Keystore.open(folder: makeTemporaryFolder())
        let itemKey = SymmetricKey(size: .bits256)
        let wrapped = try keystore.wrapItemKey(itemKey, protection: .whenUnlocked)
        try keystore.setPasscode(secret("1234"), kdf: .insecureForTesting)
        #expect(try keystore.unwrapItemKey(wrapped, protection: .whenUnlocked) == itemKey)
    }

    @Test func changeKeepsWrappedKeysUnwrappable() throws {
        let (keystore, folder) = try keystoreWithPasscode()
        let itemKeys = Dictionary(uniqueKeysWithValues: ProtectionClass.allCases.map { ($0, SymmetricKey(size: .bits256)) })
        var wrapped: [ProtectionClass: Data] = [:]
        for (protection, key) in itemKeys { wrapped[protection] = try keystore.wrapItemKey(key, protection: protection) }
        let metadataBefore = try keystore.metadataKey(for: .whenUnlocked)

        try keystore.changePasscode(from: secret("1234"), to: secret("abcdef"), kdf: .insecureForTesting)

        let reopened = try Keystore.open(folder: folder)
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 1, retryAfter: .zero)) {
            try reopened.unlock(passcode: secret("1234"))
        }
        try reopened.unlock(passcode: secret("abcdef"))
        for (protection, key) in itemKeys {
            #expect(try reopened.unwrapItemKey(wrapped[protection]!, protection: protection) == key)
        }
        #expect(try reopened.metadataKey(for: .whenUnlocked) == metadataBefore)
    }

    @Test func changeNeedsTheOldPasscode() throws {
        let (keystore, _) = try keystoreWithPasscode()
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 1, retryAfter: .zero)) {
            try keystore.changePasscode(from: secret("0000"), to: secret("abcdef"), kdf: .insecureForTesting)
        }
    }

    @Test func removeDestroysAkpuAndKeepsOtherClasses() throws {
        let (keystore, folder) = try keystoreWithPasscode()
        let akpuKey = SymmetricKey(size: .bits256)
        let akKey = SymmetricKey(size: .bits256)
        let wrappedAkpu = try keystore.wrapItemKey(akpuKey, protection: .whenPasscodeSetThisDeviceOnly)
        let wrappedAk = try keystore.wrapItemKey(akKey, protection: .whenUnlocked)

        try keystore.removePasscode(current: secret("1234"))
        #expect(!keystore.isPasscodeSet)
        #expect(keystore.lockState == .unlocked)
        #expect(throws: KeystoreError.classMissing(.whenPasscodeSetThisDeviceOnly)) {
            try keystore.unwrapItemKey(wrappedAkpu, protection: .whenPasscodeSetThisDeviceOnly)
        }

        // A new passcode makes a new akpu key: the old akpu item keys stay unreadable forever.
        let reopened = try Keystore.open(folder: folder)
        #expect(reopened.lockState == .unlocked)
        #expect(try reopened.unwrapItemKey(wrappedAk, protection: .whenUnlocked) == akKey)
        try reopened.setPasscode(secret("9876"), kdf: .insecureForTesting)
        #expect(throws: KeystoreError.wrappedKeyCorrupt) {
            try reopened.unwrapItemKey(wrappedAkpu, protection: .whenPasscodeSetThisDeviceOnly)
        }
    }

    @Test func removeNeedsThePasscode() throws {
        let (keystore, _) = try keystoreWithPasscode()
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 1, retryAfter: .zero)) {
            try keystore.removePasscode(current: secret("0000"))
        }
        #expect(keystore.isPasscodeSet)
    }

    @Test func kdfParametersAreStoredAndReused() throws {
        let folder = makeTemporaryFolder()
        let keystore = try Keystore.open(folder: folder)
        try keystore.setPasscode(secret("1234"), kdf: PasscodeKDF(logN: 11, blockSize: 4, parallelism: 2))
        // A second process derives with the stored parameters, not with any default.
        try Keystore.open(folder: folder).unlock(passcode: secret("1234"))
    }
}
