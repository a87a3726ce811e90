import Foundation
import KeychainModel
import Keystore
import Testing

/// Passcodes a program sends through the daemon are charged to that program: its wrong guesses delay
/// only its own next attempts and never erase anything, while the keybag's count (the person's, at the
/// trusted prompt) keeps Apple's delays and erase.
@Suite("Failed attempts charged to a caller", .timeLimit(.minutes(10)))
struct CallerAttemptTests {
    @Test func aProgramsGuessesDelayOnlyThatProgram() throws {
        let clock = ManualClock()
        let (_, folder) = try keystoreWithPasscode(clock: clock)
        let keystore = try Keystore.open(folder: folder, clock: clock)
        try keystore.setEraseAfterFailedAttempts(true, passcode: secret("1234"))
        let guesser = PasscodeAttempts.caller("/home/u/guess (pid 7)")
        for attempt in 1...4 {
            #expect(throws: KeystoreError.wrongPasscode(failedAttempts: attempt, retryAfter: .zero)) {
                try keystore.unlock(passcode: secret("0000"), charging: guesser)
            }
        }
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 5, retryAfter: .seconds(60))) {
            try keystore.unlock(passcode: secret("0000"), charging: guesser)
        }
        // The guesser now waits, even with the right passcode; nothing was charged to the keybag.
        #expect(throws: KeystoreError.throttled(retryAfter: .seconds(60))) {
            try keystore.unlock(passcode: secret("1234"), charging: guesser)
        }
        #expect(try keystore.status().failedAttempts == 0)
        #expect(try keystore.status().retryAfter == .zero)
        // Another program, and the person at the trusted prompt, are not delayed.
        try keystore.unlock(passcode: secret("1234"), charging: .caller("/usr/bin/other (pid 8)"))
        try keystore.unlock(passcode: secret("1234"))
    }

    @Test func aProgramsGuessesNeverErase() throws {
        let clock = ManualClock()
        let (_, folder) = try keystoreWithPasscode(clock: clock)
        let keystore = try Keystore.open(folder: folder, clock: clock)
        try keystore.setEraseAfterFailedAttempts(true, passcode: secret("1234"))
        let guesser = PasscodeAttempts.caller("guesser")
        for attempt in 1...12 {
            clock.advance(by: 3600)
            #expect(
                throws: KeystoreError.wrongPasscode(
                    failedAttempts: attempt, retryAfter: ThrottlePolicy().delay(afterFailedAttempts: attempt))
            ) {
                try keystore.unlock(passcode: secret("0000"), charging: guesser)
            }
        }
        #expect(try keystore.status().passcodeSet)
        #expect(try keystore.status().eraseAfterFailedAttempts)
        try keystore.unlock(passcode: secret("1234"))
        // The right passcode clears the program's count too.
        clock.advance(by: 3600)
        try keystore.unlock(passcode: secret("1234"), charging: guesser)
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 1, retryAfter: .zero)) {
            try keystore.unlock(passcode: secret("0000"), charging: guesser)
        }
    }

    @Test func passcodeChangesAndTheVerifierChargeTheCallerToo() throws {
        let clock = ManualClock()
        let (_, folder) = try keystoreWithPasscode(clock: clock)
        let keystore = try Keystore.open(folder: folder, clock: clock)
        let program = PasscodeAttempts.caller("program")
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 1, retryAfter: .zero)) {
            try keystore.changePasscode(from: secret("0000"), to: secret("5678"), kdf: .insecureForTesting, charging: program)
        }
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 2, retryAfter: .zero)) {
            try PasscodeVerifier(keystore: keystore).verify(secret("0000"), charging: program)
        }
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 3, retryAfter: .zero)) {
            try keystore.removePasscode(current: secret("0000"), charging: program)
        }
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 4, retryAfter: .zero)) {
            try keystore.setEraseAfterFailedAttempts(true, passcode: secret("0000"), charging: program)
        }
        #expect(try keystore.status().failedAttempts == 0)
    }
}
