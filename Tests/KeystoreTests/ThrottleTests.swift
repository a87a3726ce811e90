import Foundation
import KeychainModel
import Keystore
import Testing

@Suite("Failed unlock attempts and delays", .timeLimit(.minutes(10)))
struct ThrottleTests {
    @Test func scheduleMatchesApple() {
        let policy = ThrottlePolicy()
        let expected: [Int: Duration] = [
            1: .zero, 2: .zero, 3: .zero, 4: .zero, 5: .seconds(60), 6: .seconds(300),
            7: .seconds(900), 8: .seconds(900), 9: .seconds(3600), 10: .seconds(3600), 25: .seconds(3600),
        ]
        for (attempts, delay) in expected { #expect(policy.delay(afterFailedAttempts: attempts) == delay) }
    }

    @Test func delaysFollowTheScheduleWithAnInjectedClock() throws {
        let clock = ManualClock()
        let (_, folder) = try keystoreWithPasscode(clock: clock)
        let keystore = try Keystore.open(folder: folder, clock: clock)
        for attempt in 1...4 {
            #expect(throws: KeystoreError.wrongPasscode(failedAttempts: attempt, retryAfter: .zero)) {
                try keystore.unlock(passcode: secret("0000"))
            }
        }
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 5, retryAfter: .seconds(60))) {
            try keystore.unlock(passcode: secret("0000"))
        }
        // During the delay even the right passcode fails at once, and the attempt is not counted.
        clock.advance(by: 59)
        #expect(throws: KeystoreError.throttled(retryAfter: .seconds(1))) { try keystore.unlock(passcode: secret("1234")) }
        #expect(try keystore.status().failedAttempts == 5)

        clock.advance(by: 1)
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 6, retryAfter: .seconds(300))) {
            try keystore.unlock(passcode: secret("0000"))
        }
        clock.advance(by: 300)
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 7, retryAfter: .seconds(900))) {
            try keystore.unlock(passcode: secret("0000"))
        }
        clock.advance(by: 900)
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 8, retryAfter: .seconds(900))) {
            try keystore.unlock(passcode: secret("0000"))
        }
        clock.advance(by: 900)
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 9, retryAfter: .seconds(3600))) {
            try keystore.unlock(passcode: secret("0000"))
        }
        #expect(try keystore.status().retryAfter == .seconds(3600))
        clock.advance(by: 3600)
        try keystore.unlock(passcode: secret("1234"))
        #expect(try keystore.status().failedAttempts == 0)
        #expect(try keystore.status().retryAfter == .zero)
    }

    @Test func throttledAttemptDoesNotRunTheKDF() throws {
        let clock = ManualClock()
        let folder = makeTemporaryFolder()
        let keystore = try Keystore.open(folder: folder, clock: clock)
        // An expensive KDF: a throttled attempt must answer far faster than one derivation.
        try keystore.setPasscode(secret("1234"), kdf: PasscodeKDF(logN: 16))
        for _ in 1...5 { _ = try? keystore.unlock(passcode: secret("0000")) }
        let elapsed = ContinuousClock().measure {
            #expect(throws: KeystoreError.throttled(retryAfter: .seconds(60))) { try keystore.unlock(passcode: secret("1234")) }
        }
        let derivation = ContinuousClock().measure {
            _ = try? Keystore.open(folder: makeTemporaryFolder()).setPasscode(secret("1234"), kdf: PasscodeKDF(logN: 16))
        }
        #expect(elapsed < derivation / 4)
    }

    @Test func failedAttemptsSurviveRestart() throws {
        let clock = ManualClock()
        let (_, folder) = try keystoreWithPasscode(clock: clock)
        for _ in 1...3 { _ = try? Keystore.open(folder: folder, clock: clock).unlock(passcode: secret("0000")) }
        let status = try Keystore.open(folder: folder, clock: clock).status()
        #expect(status.failedAttempts == 3)
        #expect(status.passcodeSet)
        #expect(status.lockState == .beforeFirstUnlock)
    }

    @Test func eraseAfterTenFailuresWhenEnabled() throws {
        let clock = ManualClock()
        let (keystore, folder) = try keystoreWithPasscode(clock: clock)
        let wrapped = try keystore.wrapItemKey(.init(size: .bits256), protection: .always)
        try keystore.setEraseAfterFailedAttempts(true, passcode: secret("1234"))
        for attempt in 1...9 {
            clock.advance(by: 7200)
            #expect(throws: KeystoreError.wrongPasscode(failedAttempts: attempt, retryAfter: ThrottlePolicy().delay(afterFailedAttempts: attempt))) {
                try keystore.unlock(passcode: secret("0000"))
            }
        }
        clock.advance(by: 7200)
        #expect(throws: KeystoreError.erasedAfterFailedAttempts) { try keystore.unlock(passcode: secret("0000")) }
        #expect(!keystore.isPasscodeSet)
        // Every class key is new: even D-class item keys are gone.
        #expect(throws: KeystoreError.wrappedKeyCorrupt) { try keystore.unwrapItemKey(wrapped, protection: .always) }
        let reopened = try Keystore.open(folder: folder, clock: clock)
        #expect(
            try reopened.status()
                == KeystoreStatus(
                    passcodeSet: false, lockState: .unlocked, failedAttempts: 0, retryAfter: .zero, eraseAfterFailedAttempts: false,
                    deviceKey: .file(whyNoTPM: DeviceKeyProtection.noTPMSelected)))
        // The erase is remembered (the daemon lets only the agent of the moment choose the next passcode)
        // until a passcode is set again.
        #expect(try reopened.isErasedAwaitingPasscode())
        try reopened.setPasscode(secret("5678"), kdf: .insecureForTesting)
        #expect(try !reopened.isErasedAwaitingPasscode())
        #expect(try !Keystore.open(folder: folder, clock: clock).isErasedAwaitingPasscode())
    }

    /// Proving the passcode checks it and counts a wrong one like an unlock, and leaves the lock state alone.
    @Test func provingTheOwnerChangesNoLockState() throws {
        let clock = ManualClock()
        let (keystore, _) = try keystoreWithPasscode(clock: clock)
        #expect(try !keystore.isErasedAwaitingPasscode())
        keystore.lock()
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 1, retryAfter: .zero)) {
            try keystore.proveOwner(passcode: secret("0000"))
        }
        try keystore.proveOwner(passcode: secret("1234"))
        #expect(keystore.lockState == .locked)
        #expect(try keystore.status().failedAttempts == 0)
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 1, retryAfter: .zero)) {
            try keystore.proveOwner(passcode: secret("0000"), charging: .caller("/usr/bin/coffer"))
        }
        #expect(try keystore.status().failedAttempts == 0)
        let unset = try Keystore.open(folder: makeTemporaryFolder(), clock: clock)
        #expect(throws: KeystoreError.noPasscodeSet) { try unset.proveOwner(passcode: secret("1234")) }
    }

    @Test func noEraseWhenNotEnabled() throws {
        let clock = ManualClock()
        let (keystore, _) = try keystoreWithPasscode(clock: clock)
        for _ in 1...12 {
            clock.advance(by: 7200)
            _ = try? keystore.unlock(passcode: secret("0000"))
        }
        #expect(keystore.isPasscodeSet)
        clock.advance(by: 7200)
        try keystore.unlock(passcode: secret("1234"))
    }
}
