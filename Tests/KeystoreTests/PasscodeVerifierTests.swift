import Foundation
import KeychainModel
import Keystore
import Testing

@Suite("Passcode verification without unlocking", .timeLimit(.minutes(10)))
struct PasscodeVerifierTests {
    @Test func rightPasscodeSucceedsAndResetsTheCount() throws {
        let clock = ManualClock()
        let (keystore, _) = try keystoreWithPasscode(clock: clock)
        let verifier = PasscodeVerifier(keystore: keystore)
        for attempt in 1...3 {
            #expect(throws: KeystoreError.wrongPasscode(failedAttempts: attempt, retryAfter: .zero)) {
                try verifier.verify(secret("0000"))
            }
        }
        try verifier.verify(secret("1234"))
        #expect(try keystore.status().failedAttempts == 0)
        #expect(try keystore.status().retryAfter == .zero)
    }

    @Test func wrongPasscodeIsCountedAsAnUnlockAttempt() throws {
        let clock = ManualClock()
        let (keystore, folder) = try keystoreWithPasscode(clock: clock)
        let verifier = PasscodeVerifier(keystore: keystore)
        for attempt in 1...4 {
            #expect(throws: KeystoreError.wrongPasscode(failedAttempts: attempt, retryAfter: .zero)) {
                try verifier.verify(secret("0000"))
            }
        }
        // Unlocking continues the same count, and the fifth failure starts unlocking's first delay.
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 5, retryAfter: .seconds(60))) {
            try keystore.unlock(passcode: secret("0000"))
        }
        // The count is the keybag's: another process sees it.
        #expect(try Keystore.open(folder: folder, clock: clock).status().failedAttempts == 5)
    }

    @Test func attemptDuringADelayIsRefusedWithoutRunningTheKDF() throws {
        let clock = ManualClock()
        let keystore = try Keystore.open(folder: makeTemporaryFolder(), clock: clock)
        // An expensive KDF: a throttled attempt must answer far faster than one derivation.
        try keystore.setPasscode(secret("1234"), kdf: PasscodeKDF(logN: 16))
        let verifier = PasscodeVerifier(keystore: keystore)
        for _ in 1...5 { _ = try? verifier.verify(secret("0000")) }
        clock.advance(by: 30)
        let elapsed = ContinuousClock().measure {
            #expect(throws: KeystoreError.throttled(retryAfter: .seconds(30))) { try verifier.verify(secret("1234")) }
        }
        let derivation = ContinuousClock().measure {
            _ = try? Keystore.open(folder: makeTemporaryFolder()).setPasscode(secret("1234"), kdf: PasscodeKDF(logN: 16))
        }
        #expect(elapsed < derivation / 4)
        // Refused unchecked, so not counted either.
        #expect(try keystore.status().failedAttempts == 5)
    }

    @Test func verifyingNeverChangesTheLockState() throws {
        let (_, folder) = try keystoreWithPasscode()
        let keystore = try Keystore.open(folder: folder)
        let verifier = PasscodeVerifier(keystore: keystore)

        try verifier.verify(secret("1234"))
        #expect(keystore.lockState == .beforeFirstUnlock)
        #expect(throws: KeystoreError.classUnavailable(.afterFirstUnlock)) { try keystore.metadataKey(for: .afterFirstUnlock) }

        try keystore.unlock(passcode: secret("1234"))
        keystore.lock()
        try verifier.verify(secret("1234"))
        #expect(keystore.lockState == .locked)
        #expect(throws: KeystoreError.classUnavailable(.whenUnlocked)) { try keystore.metadataKey(for: .whenUnlocked) }

        try keystore.unlock(passcode: secret("1234"))
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 1, retryAfter: .zero)) { try verifier.verify(secret("0000")) }
        #expect(keystore.lockState == .unlocked)
        _ = try keystore.metadataKey(for: .whenUnlocked)
    }

    @Test func withoutPasscodeThereIsNothingToVerify() throws {
        let keystore = try Keystore.open(folder: makeTemporaryFolder())
        #expect(throws: KeystoreError.noPasscodeSet) { try PasscodeVerifier(keystore: keystore).verify(secret("1234")) }
    }

    @Test func tenthWrongPasscodeErasesWhenEnabled() throws {
        let clock = ManualClock()
        let (keystore, _) = try keystoreWithPasscode(clock: clock)
        try keystore.setEraseAfterFailedAttempts(true, passcode: secret("1234"))
        let verifier = PasscodeVerifier(keystore: keystore)
        for _ in 1...9 {
            clock.advance(by: 7200)
            _ = try? verifier.verify(secret("0000"))
        }
        clock.advance(by: 7200)
        #expect(throws: KeystoreError.erasedAfterFailedAttempts) { try verifier.verify(secret("0000")) }
        #expect(!keystore.isPasscodeSet)
    }
}
