import KeychainClient
import KeychainModel

/// The keychain's passcode lock.
extension Keychain {
    /// Locks the keychain: `whenUnlocked…` items cannot be read, added or updated until ``unlock(passcode:)-(SecretBytes)``.
    /// A keychain without a passcode cannot lock and stays unlocked.
    public func lock() async throws(KeychainError) {
        try await keystoreCall(.lock) { () async throws(KeystoreError) in try await client.lock() }
    }

    /// Unlocks the keychain with its passcode.
    ///
    /// A wrong passcode is `KeychainStatus.authFailed` (-25293); the ``KeychainError/reason`` says how
    /// many attempts failed and how long to wait. The passcode never appears in errors.
    public func unlock(passcode: SecretBytes) async throws(KeychainError) {
        try await keystoreCall(.unlock) { () async throws(KeystoreError) in try await client.unlock(passcode: passcode) }
    }

    /// Unlocks the keychain with its passcode, given as text (UTF-8).
    public func unlock(passcode: String) async throws(KeychainError) {
        try await unlock(passcode: SecretBytes(copying: passcode.utf8))
    }

    /// Asks the person to unlock the keychain, through the daemon's prompt agent, and returns once they
    /// have: this program never sees the passcode (iOS's model, where no app handles the device passcode).
    ///
    /// An unlocked keychain, or one without a passcode, returns at once. The person declining is
    /// `KeychainStatus.userCanceled` (-128); no prompt agent running for the user, or an embedded keychain
    /// (which has no agent: use ``unlock(passcode:)-(SecretBytes)``), is `KeychainStatus.notAvailable`
    /// (-25291). Through the system daemon this is the way for a program to unlock: only trusted front ends
    /// may send the passcode themselves (others get `KeychainStatus.missingEntitlement`, -34018).
    public func unlockWithPrompt() async throws(KeychainError) {
        try await keystoreCall(.unlock) { () async throws(KeystoreError) in try await client.unlockWithPrompt() }
    }

    /// Whether a passcode is set, the lock state, and the failed-attempt throttle.
    public func status() async throws(KeychainError) -> KeystoreStatus {
        try await keystoreCall(.status) { () async throws(KeystoreError) in try await client.lockStatus() }
    }

    private func keystoreCall<Result>(
        _ operation: KeychainError.Operation, _ body: () async throws(KeystoreError) -> Result
    ) async throws(KeychainError) -> Result {
        do {
            return try await body()
        } catch {
            throw KeychainError(status: error.status, operation: operation, reason: KeychainError.sentence(error.description))
        }
    }
}
