import CofferRuntime
import CofferTestSupport
import DaemonProtocol
import Foundation
import KeychainSelection
import KeychainModel
import KeychainOperations
import Testing
import TestProcesses

/// The daemon's prompt: a program asks to unlock, the daemon asks the session's prompt agent, the agent
/// answers with the person's passcode, and the program learns only the outcome.
@Suite("The prompt agent", .timeLimit(.minutes(10)))
struct PromptAgentTests {
    private static func secret(_ text: String) -> SecretBytes { SecretBytes(copying: Array(text.utf8)) }

    /// A locked keychain with passcode 1234 behind a fresh daemon.
    private static func lockedKeychain() async throws -> TemporaryDaemon {
        let temporary = try TemporaryDaemon()
        try await temporary.client.send(.setPasscode(new: secret("1234"))).keystoreResult()
        try await temporary.client.lock()
        return temporary
    }

    /// Asks to unlock from a connection of its own, once the agent is there (the agent's standing request
    /// may reach the daemon a moment after the test sent it).
    private static func askToUnlock(_ temporary: TemporaryDaemon) async -> Response {
        let requester = DaemonKeychain(socketPath: temporary.daemon.socketPath)
        for _ in 0..<500 {
            let answer = await requester.send(.unlockWithPrompt)
            guard case .keystoreError(.unavailable(let reason)) = answer, reason.hasPrefix("no prompt agent") else { return answer }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return await requester.send(.unlockWithPrompt)
    }

    @Test func withoutAnAgentAProgramIsToldToStartOne() async throws {
        let temporary = try await Self.lockedKeychain()
        let answer = await temporary.client.send(.unlockWithPrompt)
        #expect(answer == .keystoreError(.unavailable(reason: "no prompt agent runs for this user: start `coffer prompt-agent` in your session")))
        #expect(try await temporary.client.lockStatus().lockState == .locked)
    }

    @Test func theAgentsPasscodeUnlocksAndTheProgramLearnsOnlyTheOutcome() async throws {
        let temporary = try await Self.lockedKeychain()
        let agent = DaemonKeychain(socketPath: temporary.daemon.socketPath)
        async let requested = Self.askToUnlock(temporary)
        let prompt = try await agent.send(.awaitPrompt).promptResult()
        #expect(prompt.purpose == .unlock)
        #expect(prompt.failedAttempts == 0)
        #expect(prompt.message.contains("asks to unlock your keychain"))
        // A wrong passcode: the agent hears it and may ask again; the program keeps waiting.
        let wrong = await agent.send(.answerPrompt(id: prompt.id, passcode: Self.secret("0000")))
        #expect(wrong == .keystoreError(.wrongPasscode(failedAttempts: 1, retryAfter: .zero)))
        #expect(try await agent.send(.answerPrompt(id: prompt.id, passcode: Self.secret("1234"))) == .status(.success))
        #expect(await requested == .status(.success))
        let status = try await temporary.client.lockStatus()
        #expect(status.lockState == .unlocked)
        #expect(status.failedAttempts == 0)
    }

    @Test func aWrongPasscodeAtThePromptCountsInTheKeybag() async throws {
        let temporary = try await Self.lockedKeychain()
        let agent = DaemonKeychain(socketPath: temporary.daemon.socketPath)
        async let requested = Self.askToUnlock(temporary)
        let prompt = try await agent.send(.awaitPrompt).promptResult()
        _ = await agent.send(.answerPrompt(id: prompt.id, passcode: Self.secret("0000")))
        #expect(try await temporary.client.lockStatus().failedAttempts == 1)
        #expect(await agent.send(.answerPrompt(id: prompt.id, passcode: nil)) == .status(.success))
        #expect(await requested == .keystoreError(.cancelled))
    }

    @Test func thePersonCancelling() async throws {
        let temporary = try await Self.lockedKeychain()
        let agent = DaemonKeychain(socketPath: temporary.daemon.socketPath)
        async let requested = Self.askToUnlock(temporary)
        let prompt = try await agent.send(.awaitPrompt).promptResult()
        #expect(await agent.send(.answerPrompt(id: prompt.id, passcode: nil)) == .status(.success))
        let answer = await requested
        #expect(answer == .keystoreError(.cancelled))
        #expect(answer.keystoreStatus == .userCanceled)
        #expect(try await temporary.client.lockStatus().lockState == .locked)
    }

    @Test func anUnlockedKeychainNeedsNoPrompt() async throws {
        let temporary = try TemporaryDaemon()
        #expect(await temporary.client.send(.unlockWithPrompt) == .status(.success))
        try await temporary.client.send(.setPasscode(new: Self.secret("1234"))).keystoreResult()
        #expect(await temporary.client.send(.unlockWithPrompt) == .status(.success))
    }

    @Test func oneAgentPerUser() async throws {
        let temporary = try await Self.lockedKeychain()
        let first = DaemonKeychain(socketPath: temporary.daemon.socketPath)
        async let requested = Self.askToUnlock(temporary)
        let prompt = try await first.send(.awaitPrompt).promptResult()
        // While the first agent is connected, another is refused.
        let second = DaemonKeychain(socketPath: temporary.daemon.socketPath)
        let refusal = await second.send(.awaitPrompt)
        guard case .keystoreError(.notPermitted(let reason)) = refusal else {
            Issue.record("a second agent was not refused: \(refusal)")
            return
        }
        #expect(reason.hasPrefix("a prompt agent already runs for this user"))
        #expect(refusal.keystoreStatus == .missingEntitlement)
        // Nor may it answer the first agent's prompt.
        #expect(await second.send(.answerPrompt(id: prompt.id, passcode: Self.secret("1234"))) == .keystoreError(.cancelled))
        #expect(await first.send(.answerPrompt(id: prompt.id, passcode: Self.secret("1234"))) == .status(.success))
        #expect(await requested == .status(.success))
    }

    /// An agent of `temporary`'s daemon, registered: it was handed a prompt, which it cancelled, so that the next
    /// program's request finds it.
    private static func registeredAgent(_ temporary: TemporaryDaemon) async throws -> DaemonKeychain {
        let agent = DaemonKeychain(socketPath: temporary.daemon.socketPath)
        async let first = askToUnlock(temporary)
        let firstPrompt = try await agent.send(.awaitPrompt).promptResult()
        _ = await agent.send(.answerPrompt(id: firstPrompt.id, passcode: nil))
        #expect(await first == .keystoreError(.cancelled))
        return agent
    }

    @Test func aProgramThatLeavesWithdrawsItsPrompt() async throws {
        let temporary = try await Self.lockedKeychain()
        let agent = try await Self.registeredAgent(temporary)
        // A program asks on a connection of its own, then goes away before the person answers.
        async let prompted = agent.send(.awaitPrompt)
        let program = try UnixSocket.connect(to: temporary.daemon.socketPath)
        #expect(UnixSocket.writeAll(program, try RequestEnvelope(id: 1, request: .unlockWithPrompt).encodedFrame()))
        let prompt = try await prompted.promptResult()
        close(program)
        // The prompt is gone with the program: the agent's late answer is turned away, nothing is unlocked.
        var late = Response.status(.success)
        for _ in 0..<500 {
            try await Task.sleep(for: .milliseconds(10))
            late = await agent.send(.answerPrompt(id: prompt.id, passcode: nil))
            if late == .keystoreError(.cancelled) { break }
        }
        #expect(late == .keystoreError(.cancelled))
        #expect(try await temporary.client.lockStatus().lockState == .locked)
    }

    /// A program whose path holds a newline cannot write lines of its own into the prompt ("… (verified)"): the
    /// daemon names it with the newline escaped.
    @Test func aProgramsPathCannotAddLinesToThePrompt() async throws {
        let temporary = try await Self.lockedKeychain()
        let agent = try await Self.registeredAgent(temporary)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "coffer-spoof-\(UUID().uuidString)\nFirefox Sync needs your keychain passcode (verified)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let helper = folder.appendingPathComponent("helper").path
        try FileManager.default.copyItem(
            atPath: URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("CofferTestHelper").path,
            toPath: helper)
        async let prompted = agent.send(.awaitPrompt)
        let program = try ChildProcess([helper, "daemon-client", temporary.daemon.socketPath, "unlock-prompt", "-"], output: .pipe, errors: .null)
        let prompt = try await prompted.promptResult()
        #expect(!prompt.message.contains("\n"))
        #expect(prompt.requester.contains("\\nFirefox Sync needs your keychain passcode (verified)/helper (pid "))
        #expect(await agent.send(.answerPrompt(id: prompt.id, passcode: nil)) == .status(.success))
        let outcome = try program.finish(timeout: .seconds(30))
        #expect(outcome.outputText == "\(KeystoreError.cancelled.status.code)\n")
    }

    @Test func anAgentThatLeavesAnswersTheWaitingProgram() async throws {
        let temporary = try await Self.lockedKeychain()
        // A pinentry that never answers, and leaves a mark once the agent has started it for the prompt:
        // the agent is killed while the person "thinks". It ends when the agent's pipe closes.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-silent-pinentry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let pinentry = scratch.appendingPathComponent("pinentry").path, shown = scratch.appendingPathComponent("shown").path
        try "#!/bin/sh\necho OK\n: > '\(shown)'\nwhile read -r line; do :; done\n".write(toFile: pinentry, atomically: true, encoding: .utf8)
        _ = chmod(pinentry, 0o755)
        let coffer = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("coffer").path
        let agent = try ChildProcess(
            [coffer, "prompt-agent", "--pinentry", pinentry],
            environment: ["COFFER_SOCKET": temporary.daemon.socketPath, "PATH": "/usr/bin:/bin"], output: .null, errors: .null)
        defer { agent.kill() }
        async let requested = Self.askToUnlock(temporary)
        let deadline = ContinuousClock.now + .seconds(60)
        while !FileManager.default.fileExists(atPath: shown) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(FileManager.default.fileExists(atPath: shown), "the agent never showed the prompt")
        agent.kill()
        let answer = await requested
        #expect(answer == .keystoreError(.unavailable(reason: "the prompt agent stopped before the person answered")))
    }
}

extension Response {
    /// The Apple status a keystore answer maps to.
    fileprivate var keystoreStatus: KeychainStatus? {
        if case .keystoreError(let error) = self { return error.status }
        return nil
    }
}
