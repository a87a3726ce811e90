import CofferTestSupport
import Foundation
import KeychainSelection
import KeychainModel
import KeychainOperations
import Testing

/// Passcodes a program sends through the daemon are charged to that program, whatever connection or
/// process it uses, and never to the keybag's count that the person's prompt keeps.
@Suite("Passcode attempts through the daemon", .timeLimit(.minutes(10)))
struct ProgramPasscodeAttemptTests {
    private static func secret(_ text: String) -> SecretBytes { SecretBytes(copying: Array(text.utf8)) }

    @Test func guessesFromNewConnectionsOfOneProgramAddUp() async throws {
        let temporary = try TemporaryDaemon()
        try await temporary.client.send(.setPasscode(new: Self.secret("1234"))).keystoreResult()
        try await temporary.client.send(.setEraseAfterFailedAttempts(true, passcode: Self.secret("1234"))).keystoreResult()
        try await temporary.client.lock()
        for attempt in 1...5 {
            let guesser = DaemonKeychain(socketPath: temporary.daemon.socketPath)
            let expected = KeystoreError.wrongPasscode(
                failedAttempts: attempt, retryAfter: attempt == 5 ? .seconds(60) : .zero)
            #expect(await guesser.send(.unlock(passcode: Self.secret("0000"))) == .keystoreError(expected))
        }
        // The program now waits, even with the right passcode, on any connection.
        let answer = await DaemonKeychain(socketPath: temporary.daemon.socketPath).send(.unlock(passcode: Self.secret("1234")))
        guard case .keystoreError(.throttled) = answer else {
            Issue.record("expected a delay, got \(answer)")
            return
        }
        // Nothing was charged to the keybag: no delay for the person, nothing erased.
        let status = try await temporary.client.lockStatus()
        #expect(status.failedAttempts == 0)
        #expect(status.retryAfter == .zero)
        #expect(status.passcodeSet)
    }
}
