import KeychainModel
import KeychainOperations

// The calls of the daemon's prompt: a program asking the person to unlock, and the prompt agent's side.

extension KeychainClient {
    /// Asks the person, through the daemon's prompt agent, to unlock the keychain; returns once they have.
    /// The passcode goes from the agent to the daemon, never through this program.
    ///
    /// - Throws: ``KeystoreError/cancelled`` when the person declined, ``KeystoreError/unavailable(reason:)``
    ///   when no prompt agent runs for this user (or the keychain is embedded).
    public func unlockWithPrompt() async throws(KeystoreError) {
        try await send(.unlockWithPrompt).keystoreResult()
    }
}

extension BlockingKeychainCalls {
    /// Asks the person, through the daemon's prompt agent, to unlock the keychain (``KeychainClient/unlockWithPrompt()``).
    public func unlockWithPrompt() throws(KeystoreError) {
        try client.sendBlocking(.unlockWithPrompt).keystoreResult()
    }

    /// The prompt agent's wait for the next question (``Request/awaitPrompt``).
    public func awaitPrompt() throws(KeystoreError) -> Prompt {
        try client.sendBlocking(.awaitPrompt).promptResult()
    }

    /// The prompt agent's answer: the passcode typed, or nil when the person cancelled. A wrong passcode
    /// throws ``KeystoreError/wrongPasscode(failedAttempts:retryAfter:)`` and the prompt stays open.
    public func answerPrompt(id: UInt64, passcode: SecretBytes?) throws(KeystoreError) {
        try client.sendBlocking(.answerPrompt(id: id, passcode: passcode)).keystoreResult()
    }
}
