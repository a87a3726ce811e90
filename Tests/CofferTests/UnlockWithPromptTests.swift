import Coffer
import CofferTestSupport
import Foundation
import KeychainSelection
import KeychainModel
import KeychainOperations
import Testing

/// `Keychain.unlockWithPrompt()`: the program asks, the prompt agent answers, the program never sees the passcode.
@Suite("Unlocking through the prompt, from the Swift API", .timeLimit(.minutes(10)))
struct UnlockWithPromptTests {
    private static func secret(_ text: String) -> SecretBytes { SecretBytes(copying: Array(text.utf8)) }

    @Test func theAgentUnlocksForTheProgram() async throws {
        let temporary = try TemporaryDaemon()
        try await temporary.client.send(.setPasscode(new: Self.secret("1234"))).keystoreResult()
        try await temporary.client.lock()
        let keychain = Keychain(client: DaemonKeychain(socketPath: temporary.daemon.socketPath))
        // Without an agent the program is told so.
        let missing = await #expect(throws: KeychainError.self) { try await keychain.unlockWithPrompt() }
        #expect(missing?.status == .notAvailable)
        // The agent registers (its standing request), then answers the program's prompt.
        let agent = DaemonKeychain(socketPath: temporary.daemon.socketPath)
        async let prompted = agent.send(.awaitPrompt)
        async let asked: Void = {
            for _ in 0..<500 {
                do {
                    try await keychain.unlockWithPrompt()
                    return
                } catch let error as KeychainError {
                    guard error.status == .notAvailable else { return }
                    try? await Task.sleep(for: .milliseconds(10))
                } catch {
                    return
                }
            }
        }()
        let prompt = try await prompted.promptResult()
        #expect(await agent.send(.answerPrompt(id: prompt.id, passcode: Self.secret("1234"))) == .status(.success))
        await asked
        #expect(try await keychain.status().lockState == .unlocked)
    }

    @Test func declinedIsUserCanceledAndEmbeddedIsNotAvailable() async throws {
        let temporary = try TemporaryDaemon()
        try await temporary.client.send(.setPasscode(new: Self.secret("1234"))).keystoreResult()
        try await temporary.client.lock()
        let keychain = Keychain(client: DaemonKeychain(socketPath: temporary.daemon.socketPath))
        let agent = DaemonKeychain(socketPath: temporary.daemon.socketPath)
        async let prompted = agent.send(.awaitPrompt)
        async let outcome: KeychainStatus? = {
            for _ in 0..<500 {
                do {
                    try await keychain.unlockWithPrompt()
                    return .success
                } catch let error as KeychainError {
                    guard error.status == .notAvailable else { return error.status }
                    try? await Task.sleep(for: .milliseconds(10))
                } catch {
                    return nil
                }
            }
            return nil
        }()
        let prompt = try await prompted.promptResult()
        _ = await agent.send(.answerPrompt(id: prompt.id, passcode: nil))
        #expect(await outcome == .userCanceled)

        let embedded = TemporaryKeychain()
        try embedded.setPasscode("1234")
        let error = await #expect(throws: KeychainError.self) { try await embedded.reopened().unlockWithPrompt() }
        #expect(error?.status == .notAvailable)
    }
}
