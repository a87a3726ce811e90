import KeyCrypto
import KeychainModel

extension KeychainError {
    /// The failure of a key operation run in this process: Apple's status and the cryptography's reason,
    /// which names the algorithm or the rule and never key bytes or plaintext.
    init(_ error: KeyCryptoError, operation: Operation) {
        self.init(status: KeychainStatus(code: error.status), operation: operation, reason: Self.sentence(error.message))
    }

    /// The failure of a key operation the keychain ran or refused (a key that never leaves it).
    init(_ failure: KeychainFailure, operation: Operation) {
        self.init(status: failure.status, operation: operation, reason: failure.reason.map(Self.sentence))
    }
}
