import CofferTestSupport
import Foundation
import KeychainSelection
import KeychainModel
import KeychainOperations
import Keystore
import LocalAuthentication
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A passcode as the keychain takes it.
func secret(_ text: String) -> SecretBytes { SecretBytes(copying: Array(text.utf8)) }

/// A keychain folder in the temporary directory, removed when released; with `passcode`, the keychain gets
/// it first (cheap KDF).
final class TemporaryKeychainFolder: Sendable {
    let url: URL
    var folder: KeychainFolder { KeychainFolder(url: url) }

    init(passcode: String? = nil) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-la-\(UUID().uuidString)", isDirectory: true)
        if let passcode {
            try Keystore.open(folder: KeychainFolder(url: url)).setPasscode(secret(passcode), kdf: .insecureForTesting)
        }
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The embedded keychain in a fresh folder, unlocked.
final class EmbeddedFixture: Sendable {
    let storage: TemporaryKeychainFolder
    let client: EmbeddedKeychain

    init(passcode: String? = nil) throws {
        storage = try TemporaryKeychainFolder(passcode: passcode)
        client = EmbeddedKeychain(folder: storage.folder, caller: .embedded(environment: [:]))
        if let passcode { try client.blocking.unlock(passcode: secret(passcode)) }
    }

    /// Runs `body` with the Apple-API modules (LAContext, SecItem) on this keychain.
    func run<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        try await SharedKeychainClient.$taskClient.withValue(client, operation: body)
    }
}

/// A daemon in this process over a fresh keychain with passcode 1234, unlocked, a client of it (the
/// program), and a second client (the prompt agent).
final class DaemonFixture: Sendable {
    static let passcode = "1234"
    let storage: TemporaryKeychainFolder
    let daemon: InProcessDaemon
    let client: DaemonKeychain
    let agent: DaemonKeychain

    init(passcode: String? = DaemonFixture.passcode) throws {
        storage = try TemporaryKeychainFolder(passcode: passcode)
        daemon = try InProcessDaemon(folder: storage.folder, groups: nil)
        client = DaemonKeychain(socketPath: daemon.socketPath)
        agent = DaemonKeychain(socketPath: daemon.socketPath)
        if let passcode { try client.blocking.unlock(passcode: secret(passcode)) }
    }

    /// Runs `body` with the Apple-API modules on the program's connection.
    func run<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        try await SharedKeychainClient.$taskClient.withValue(client, operation: body)
    }

    /// Runs `body` (a blocking `SecItem…` call) on a thread of its own, with the Apple-API modules on the
    /// program's connection: the cooperative pool is never blocked while the keychain waits for the agent.
    func onThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        let client = client
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: SharedKeychainClient.$taskClient.withValue(client, operation: body)) }.start()
        }
    }

    /// The agent's next prompt.
    func nextPrompt() async throws -> Prompt {
        try await agent.send(.awaitPrompt).promptResult()
    }

    /// The agent's answer to `prompt`: `passcode`, or nil to cancel.
    func answer(_ prompt: Prompt, with passcode: String?) async -> Response {
        await agent.send(.answerPrompt(id: prompt.id, passcode: passcode.map(secret)))
    }

    /// Answers every further prompt by cancelling it, counting them; for checks that no prompt is shown.
    func cancelEveryPrompt() -> PromptCounter {
        let counter = PromptCounter()
        let agent = agent
        Task.detached {
            while case .prompt(let prompt) = await agent.send(.awaitPrompt) {
                counter.count()
                _ = await agent.send(.answerPrompt(id: prompt.id, passcode: nil))
            }
        }
        return counter
    }
}

/// How many prompts reached the agent.
final class PromptCounter: Sendable {
    private let prompts = Mutex(0)
    func count() { prompts.withLock { $0 += 1 } }
    var value: Int { prompts.withLock { $0 } }
}

/// The outcome of a callback evaluation, and whether the reply came on the calling thread.
struct ReplyOutcome: Sendable {
    var success: Bool
    var error: (any Error)?
    var onCallingThread: Bool

    var laError: LAError? { error as? LAError }
    var code: Int? { error.map { ($0 as NSError).code } }
    var debugDescription: String? { error.flatMap { ($0 as NSError).userInfo[NSDebugDescriptionErrorKey] as? String } }
}

/// `evaluatePolicy(_:localizedReason:reply:)`, awaited.
func evaluate(_ context: LAContext, _ policy: LAPolicy, reason: String) async -> ReplyOutcome {
    await withCheckedContinuation { continuation in
        let caller = pthread_self()
        context.evaluatePolicy(policy, localizedReason: reason) { success, error in
            continuation.resume(returning: ReplyOutcome(success: success, error: error, onCallingThread: pthread_equal(caller, pthread_self()) != 0))
        }
    }
}

/// `evaluatePolicy` once the prompt agent listens: while the daemon answers that no agent runs (the
/// agent's standing request may reach the daemon a moment after the test sent it), evaluates again.
func evaluateOnceTheAgentListens(_ context: LAContext, _ policy: LAPolicy, reason: String) async -> ReplyOutcome {
    for _ in 0..<500 {
        let outcome = await evaluate(context, policy, reason: reason)
        guard outcome.laError?.code == .notInteractive, outcome.debugDescription?.hasPrefix("no prompt agent") == true else { return outcome }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return await evaluate(context, policy, reason: reason)
}

/// `body`'s value, or nil when it takes longer than `limit` (`body` is then left running).
func within<Value: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async -> Value) async -> Value? {
    let slot = ContinuationSlot<Value?>()
    return await withCheckedContinuation { continuation in
        slot.fill(continuation)
        Task { slot.resume(returning: await body()) }
        Task {
            try? await Task.sleep(for: limit)
            slot.resume(returning: nil)
        }
    }
}

/// A continuation resumed by whichever comes first.
final class ContinuationSlot<Value: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<Value, Never>?>(nil)
    func fill(_ continuation: CheckedContinuation<Value, Never>) { self.continuation.withLock { $0 = continuation } }
    func resume(returning value: Value) { continuation.withLock { $0.take() }?.resume(returning: value) }
}
