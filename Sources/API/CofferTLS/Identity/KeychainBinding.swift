import KeychainSelection

/// The keychain a signing key was taken from, so that its signatures, made on a thread pool's thread, go to the same
/// keychain.
///
/// The `Security` module calls the keychain of the current task: a task-local replacement (tests, through
/// `SecurityTesting.withKeychain`) or the process's shared one. Task-locals do not reach a thread pool's threads, so
/// the task's choice is captured where the identity is made and bound again around each signature.
struct KeychainBinding: Sendable {
    /// The task's keychain when the key was taken, or nil for the process's shared one.
    let taskClient: (any KeychainClient)?

    /// The keychain of the current task.
    static func current() -> KeychainBinding {
        KeychainBinding(taskClient: SharedKeychainClient.taskClient)
    }

    /// Runs `body` with the `Security` module's calls going to the captured keychain.
    func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        guard let taskClient else { return try body() }
        return try SharedKeychainClient.$taskClient.withValue(taskClient, operation: body)
    }
}
