import BackupFormat
import Crypto
import Foundation
import KeychainModel
import TPMFixture
import Testing
import TrustedPlatformModule

@testable import Keystore

/// The keystore bound to a TPM (Debian's swtpm): the device key sealed, the passcode tangled, the recovery key.
///
/// swtpm serves one connection at a time, so a keystore is released (its scope ends) before another opens the same TPM.
@Suite struct KeystoreTPMTests {
    @Test func aNewKeychainIsSealedAndItsPasscodeWorksThroughTheTPM() throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        let folder = temporaryFolder()
        let clock = ManualClock()
        let wrapped: Data
        let itemKey = SymmetricKey(size: .bits256)
        do {
            let keystore = try Keystore.open(folder: folder, clock: clock, tpm: .tcti(software.tcti))
            #expect(FileManager.default.fileExists(atPath: folder.tpmDeviceKeyURL.path))
            #expect(!FileManager.default.fileExists(atPath: folder.deviceKeyURL.path))
            guard case .tpm(let binding) = keystore.deviceKeyProtection else {
                Issue.record("not bound: \(keystore.deviceKeyProtection)")
                return
            }
            #expect(binding.tcti == software.tcti && binding.recoveryKeyPending && binding.pcrs.isEmpty)
            try keystore.setPasscode(secret("first passcode"), kdf: .insecureForTesting)
            wrapped = try keystore.wrapItemKey(itemKey, protection: .whenUnlocked)
            keystore.lock()
            #expect(throws: KeystoreError.classUnavailable(.whenUnlocked)) { try keystore.unwrapItemKey(wrapped, protection: .whenUnlocked) }
            #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 1, retryAfter: .zero)) {
                try keystore.unlock(passcode: secret("wrong passcode"))
            }
            try keystore.unlock(passcode: secret("first passcode"))
            try keystore.changePasscode(from: secret("first passcode"), to: secret("second passcode"), kdf: .insecureForTesting)
        }
        do {
            let reopened = try Keystore.open(folder: folder, clock: clock, tpm: .tcti(software.tcti))
            #expect(reopened.lockState == .beforeFirstUnlock)
            #expect(throws: KeystoreError.self) { try reopened.unlock(passcode: secret("first passcode")) }
            try reopened.unlock(passcode: secret("second passcode"))
            #expect(try reopened.unwrapItemKey(wrapped, protection: .whenUnlocked) == itemKey)
            try reopened.removePasscode(current: secret("second passcode"))
            #expect(try reopened.unwrapItemKey(wrapped, protection: .whenUnlocked) == itemKey)
        }
        #expect(try software.loadedTransientObjects() == 0)
    }

    @Test func anUnlockSendsAtMostTwoTPMCommands() throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        let folder = temporaryFolder()
        do {
            let keystore = try Keystore.open(folder: folder, tpm: .tcti(software.tcti))
            try keystore.setPasscode(secret("a passcode"), kdf: .insecureForTesting)
        }
        let keystore = try Keystore.open(folder: folder, tpm: .tcti(software.tcti))
        let opened = try #require(keystore.tpmCommandsSent)
        try keystore.unlock(passcode: secret("a passcode"))
        let first = try #require(keystore.tpmCommandsSent) - opened
        keystore.lock()
        let locked = try #require(keystore.tpmCommandsSent)
        try keystore.unlock(passcode: secret("a passcode"))
        let second = try #require(keystore.tpmCommandsSent) - locked
        #expect(first == 2, "the passcode key is loaded, then the HMAC")
        #expect(second == 1)
    }

    @Test func aCopiedFolderDoesNotOpenOnAnotherTPMButTheRecoveryKeyOpensAndReseals() throws {
        let first = try SoftwareTPM()
        defer { first.stop() }
        let second = try SoftwareTPM()
        defer { second.stop() }
        let folder = temporaryFolder()
        let itemKey = SymmetricKey(size: .bits256)
        let wrapped: Data
        let recoveryKey: RecoveryKey
        do {
            let keystore = try Keystore.open(folder: folder, tpm: .tcti(first.tcti))
            try keystore.setPasscode(secret("the passcode"), kdf: .insecureForTesting)
            wrapped = try keystore.wrapItemKey(itemKey, protection: .whenUnlockedThisDeviceOnly)
            recoveryKey = try keystore.takeRecoveryKey(passcode: "the passcode")
            #expect(throws: KeystoreError.self) { try keystore.recoveryKey(renew: false, passcode: secret("the passcode")) }
        }
        let moved = try copy(folder)
        let refusal = #expect(throws: KeystoreError.self) { try Keystore.open(folder: moved, tpm: .tcti(second.tcti)) }
        guard case .tpmUnavailable(let reason)? = refusal else {
            Issue.record("not refused as another TPM: \(String(describing: refusal))")
            return
        }
        #expect(reason.contains("bound to another TPM") && reason.contains("coffer keystore recover"))
        #expect(refusal?.status == .notAvailable)
        #expect(throws: KeystoreError.self) { try Keystore.open(folder: moved, tpm: .none) }

        #expect(throws: KeystoreError.wrongRecoveryKey) {
            try Keystore.recover(folder: moved, recoveryKey: RecoveryKey.generate(), passcode: secret("the passcode"), tpm: .tcti(second.tcti))
        }
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 1, retryAfter: .zero)) {
            try Keystore.recover(folder: moved, recoveryKey: recoveryKey, passcode: secret("not the passcode"), tpm: .tcti(second.tcti))
        }
        do {
            let recovered = try Keystore.recover(folder: moved, recoveryKey: recoveryKey, passcode: secret("the passcode"), tpm: .tcti(second.tcti))
            #expect(recovered.lockState == .unlocked)
            #expect(try recovered.unwrapItemKey(wrapped, protection: .whenUnlockedThisDeviceOnly) == itemKey)
        }
        // Sealed again to the second TPM: it opens there with the passcode alone.
        let resealed = try Keystore.open(folder: moved, tpm: .tcti(second.tcti))
        try resealed.unlock(passcode: secret("the passcode"))
        #expect(try resealed.unwrapItemKey(wrapped, protection: .whenUnlockedThisDeviceOnly) == itemKey)
        #expect(try resealed.status().failedAttempts == 0)
    }

    @Test func aClearedTPMIsRecoveredWithTheRecoveryKey() throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        let folder = temporaryFolder()
        let recoveryKey: RecoveryKey
        do {
            let keystore = try Keystore.open(folder: folder, tpm: .tcti(software.tcti))
            recoveryKey = try keystore.takeRecoveryKey(passcode: nil)
        }
        try software.clear()
        #expect(throws: KeystoreError.self) { try Keystore.open(folder: folder, tpm: .tcti(software.tcti)) }
        _ = try Keystore.recover(folder: folder, recoveryKey: recoveryKey, passcode: nil, tpm: .tcti(software.tcti))
        let reopened = try Keystore.open(folder: folder, tpm: .tcti(software.tcti))
        #expect(reopened.lockState == .unlocked)
    }

    @Test func theFolderAloneHoldsNothingToCheckAPasscodeAgainst() throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        let bound = temporaryFolder()
        do {
            let keystore = try Keystore.open(folder: bound, tpm: .tcti(software.tcti))
            try keystore.setPasscode(secret("the passcode"), kdf: .insecureForTesting)
        }
        // Every 32 bytes of every small file, tried as the device key: none authenticates the keybag, so nothing
        // derives the key a passcode guess would be checked with.
        #expect(try deviceKeyCandidates(in: bound).isEmpty)
        // The check finds the key where it is a file.
        let file = temporaryFolder()
        do {
            let keystore = try Keystore.open(folder: file, tpm: .none)
            try keystore.setPasscode(secret("the passcode"), kdf: .insecureForTesting)
        }
        #expect(try deviceKeyCandidates(in: file).count == 1)
    }

    @Test func wrongPasscodesNeverRaiseTheTPMsLockoutCounter() throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        let folder = temporaryFolder()
        let clock = ManualClock()
        do {
            let keystore = try Keystore.open(folder: folder, clock: clock, tpm: .tcti(software.tcti))
            try keystore.setPasscode(secret("the passcode"), kdf: .insecureForTesting)
            keystore.lock()
            for attempt in 1...8 {
                #expect(throws: KeystoreError.self) { try keystore.unlock(passcode: secret("guess \(attempt)")) }
                clock.advance(by: 3_600)
            }
            #expect(try keystore.status().failedAttempts == 8)
        }
        #expect(try software.lockoutCounter() == 0)
    }

    @Test func bindAndUnbindMoveTheDeviceKeyWithoutTouchingItems() throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        let folder = temporaryFolder()
        let itemKey = SymmetricKey(size: .bits256)
        let deviceKeyFile: Data
        let wrapped: Data
        do {
            let keystore = try Keystore.open(folder: folder, tpm: .none)
            try keystore.setPasscode(secret("the passcode"), kdf: .insecureForTesting)
            wrapped = try keystore.wrapItemKey(itemKey, protection: .afterFirstUnlock)
            deviceKeyFile = try Data(contentsOf: folder.deviceKeyURL)
        }
        let recoveryText: SecretBytes
        do {
            let keystore = try Keystore.open(folder: folder, tpm: .tcti(software.tcti))
            #expect(keystore.deviceKeyProtection == .file(whyNoTPM: nil))
            #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 1, retryAfter: .zero)) {
                try keystore.bindToTPM(passcode: secret("wrong"))
            }
            recoveryText = try #require(try keystore.bindToTPM(passcode: secret("the passcode")))
            #expect(!FileManager.default.fileExists(atPath: folder.deviceKeyURL.path))
            #expect(throws: KeystoreError.self) { try keystore.bindToTPM(passcode: secret("the passcode")) }
        }
        _ = try RecoveryKey.parse(recoveryText)
        do {
            // The passcode is now tangled: the keychain opens only with the TPM.
            #expect(throws: KeystoreError.self) { try Keystore.open(folder: folder, tpm: .none) }
            let keystore = try Keystore.open(folder: folder, tpm: .tcti(software.tcti))
            try keystore.unlock(passcode: secret("the passcode"))
            #expect(try keystore.unwrapItemKey(wrapped, protection: .afterFirstUnlock) == itemKey)
            try keystore.unbindFromTPM(passcode: secret("the passcode"))
            #expect(!FileManager.default.fileExists(atPath: folder.tpmDeviceKeyURL.path))
        }
        #expect(try Data(contentsOf: folder.deviceKeyURL) == deviceKeyFile, "the device key kept its value")
        let keystore = try Keystore.open(folder: folder, tpm: .none)
        try keystore.unlock(passcode: secret("the passcode"))
        #expect(try keystore.unwrapItemKey(wrapped, protection: .afterFirstUnlock) == itemKey)
    }

    @Test func aMoveInterruptedBetweenItsFilesIsFinishedAtOpen() throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        let folder = temporaryFolder()
        let deviceKeyFile: Data
        do {
            let keystore = try Keystore.open(folder: folder, tpm: .none)
            try keystore.setPasscode(secret("the passcode"), kdf: .insecureForTesting)
            deviceKeyFile = try Data(contentsOf: folder.deviceKeyURL)
        }
        do {
            let keystore = try Keystore.open(folder: folder, tpm: .tcti(software.tcti))
            _ = try keystore.bindToTPM(passcode: secret("the passcode"))
        }
        // A crash after the keybag named the TPM but before device.key was removed.
        try deviceKeyFile.write(to: folder.deviceKeyURL)
        let keystore = try Keystore.open(folder: folder, tpm: .tcti(software.tcti))
        #expect(!FileManager.default.fileExists(atPath: folder.deviceKeyURL.path))
        try keystore.unlock(passcode: secret("the passcode"))
    }

    @Test func erasingAfterFailedAttemptsKeepsTheBinding() throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        let folder = temporaryFolder()
        let clock = ManualClock()
        do {
            let keystore = try Keystore.open(folder: folder, clock: clock, tpm: .tcti(software.tcti))
            try keystore.setPasscode(secret("the passcode"), kdf: .insecureForTesting)
            try keystore.setEraseAfterFailedAttempts(true, passcode: secret("the passcode"))
            for attempt in 1...10 {
                clock.advance(by: 3_600)
                _ = try? keystore.unlock(passcode: secret("guess \(attempt)"))
            }
            #expect(!keystore.isPasscodeSet)
            try keystore.setPasscode(secret("a new passcode"), kdf: .insecureForTesting)
        }
        let keystore = try Keystore.open(folder: folder, clock: clock, tpm: .tcti(software.tcti))
        guard case .tpm = keystore.deviceKeyProtection else {
            Issue.record("the erase dropped the TPM binding")
            return
        }
        try keystore.unlock(passcode: secret("a new passcode"))
        #expect(try keystore.loadKeybag().recoveryClassKeys?.isEmpty == false)
    }

    @Test func aTPMThatCannotBeReachedRefusesANamedKeychainAndTheDefaultFallsBack() throws {
        let software = try SoftwareTPM()
        let tcti = software.tcti
        software.stop()
        let folder = temporaryFolder()
        let refusal = #expect(throws: KeystoreError.self) { try Keystore.open(folder: folder, tpm: .tcti(tcti)) }
        #expect(refusal?.status == .notAvailable)
        #expect(!FileManager.default.fileExists(atPath: folder.keybagURL.path), "nothing was made")
        let file = try Keystore.open(folder: folder, tpm: .none)
        guard case .file(let whyNoTPM?) = file.deviceKeyProtection else {
            Issue.record("no reason given for the file")
            return
        }
        #expect(whyNoTPM.contains("no TPM is selected"))
    }

    @Test func aDamagedTPMFileIsReportedAndLeftUntouched() throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        let folder = temporaryFolder()
        do { _ = try Keystore.open(folder: folder, tpm: .tcti(software.tcti)) }
        let original = try Data(contentsOf: folder.tpmDeviceKeyURL)
        var flipped = original
        flipped[80] ^= 1
        for damaged in [original.prefix(40), Data(original.dropLast()), flipped] {
            try damaged.write(to: folder.tpmDeviceKeyURL)
            let refusal = #expect(throws: KeystoreError.self) { try Keystore.open(folder: folder, tpm: .tcti(software.tcti)) }
            guard case .deviceKeyDamaged? = refusal else {
                Issue.record("not reported as damage: \(String(describing: refusal))")
                continue
            }
            #expect(refusal?.status == .notAvailable)
            #expect(try Data(contentsOf: folder.tpmDeviceKeyURL) == damaged, "left untouched")
        }
        try original.write(to: folder.tpmDeviceKeyURL)
        _ = try Keystore.open(folder: folder, tpm: .tcti(software.tcti))
    }

    /// The 32-byte windows of the folder's small files that authenticate its keybag as the device key.
    private func deviceKeyCandidates(in folder: KeychainFolder) throws -> [Data] {
        let keybag = try Data(contentsOf: folder.keybagURL)
        var found: [Data] = []
        for url in [folder.deviceKeyURL, folder.tpmDeviceKeyURL, folder.keybagURL] {
            guard let bytes = try? Data(contentsOf: url), bytes.count >= 32 else { continue }
            for start in 0...(bytes.count - 32) {
                let candidate = SecretBytes(copying: bytes[start..<(start + 32)])
                guard let key = try? DeviceKey.fromBytes(candidate) else { continue }
                if (try? KeybagFile.decode(keybag, deviceKey: key)) != nil { found.append(Data(bytes[start..<(start + 32)])) }
            }
        }
        return found
    }
}
