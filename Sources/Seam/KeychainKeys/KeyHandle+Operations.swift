import Foundation
import KeyCrypto
import KeychainClient
import KeychainModel
import KeychainOperations

/// What a key does, with Apple's algorithms and statuses. A software key works in this process; a kept
/// key's private operations are sent to the keychain through the caller's client, which authenticates and
/// resends when the key's access control asks for the person.
extension KeyHandle {
    /// The result of `operation` with `algorithm`, waiting on the keychain for a kept key (for synchronous
    /// callers such as `SecKey…` and CryptoKit).
    public func perform(
        _ operation: PrivateKeyOperation, algorithm: KeyAlgorithm, through client: any KeychainClient
    ) throws(KeychainFailure) -> Data {
        switch try prepare(operation, algorithm: algorithm) {
        case .done(let result): return result
        case .inKeychain(let use): return try client.sendBlocking(.useTokenKey(use)).tokenKeyUseResult()
        }
    }

    /// The result of `operation` with `algorithm`, the task suspended while the keychain runs a kept key's.
    public func perform(
        _ operation: PrivateKeyOperation, algorithm: KeyAlgorithm, through client: any KeychainClient
    ) async throws(KeychainFailure) -> Data {
        switch try prepare(operation, algorithm: algorithm) {
        case .done(let result): return result
        case .inKeychain(let use): return try await client.send(.useTokenKey(use)).tokenKeyUseResult()
        }
    }

    /// Checks `signature` over `data` with the key's public half. A signature that does not match throws
    /// `errSecVerifyFailed` (-67808).
    public func verifySignature(_ signature: Data, for data: Data, algorithm: KeyAlgorithm) throws(KeychainFailure) {
        let key = try softwareKey(for: "verify")
        try Self.catching { () throws(KeyCryptoError) in try key.verifySignature(signature, for: data, algorithm: algorithm) }
    }

    /// `plaintext` encrypted to the key's public half.
    public func encrypt(_ plaintext: Data, algorithm: KeyAlgorithm) throws(KeychainFailure) -> Data {
        let key = try softwareKey(for: "encrypt")
        return try Self.catching { () throws(KeyCryptoError) in try key.encrypt(plaintext, algorithm: algorithm) }
    }

    /// Whether the key performs `algorithm` for `operation` (`SecKeyIsAlgorithmSupported`). A kept key signs,
    /// decrypts and agrees keys as its kind allows (``TokenKeyCreation/Kind/uses``) and as a software private
    /// key of its type does, since the keychain runs the same code; its public key does the rest.
    public func isSupported(_ algorithm: KeyAlgorithm, for operation: KeyOperation) -> Bool {
        switch storage {
        case .software(let key): return key.isSupported(algorithm, for: operation)
        case .kept(let key):
            guard let use = TokenKeyCreation.Kind.Use(operation), key.kind.uses.contains(use) else { return false }
            return AsymmetricKey.isSupported(algorithm, for: operation, byPrivateKeyOf: type, sizeInBits: sizeInBits)
        }
    }

    /// The key's bytes as Apple exports them (`SecKeyCopyExternalRepresentation`). A kept key cannot be
    /// exported: `errSecUnimplemented` (-4), as Apple's Secure Enclave keys answer.
    public func externalRepresentation() throws(KeychainFailure) -> Data {
        switch storage {
        case .software(let key): return key.externalRepresentation()
        case .kept: throw KeychainFailure(.unimplemented, reason: "export not implemented for a key that never leaves the keychain")
        }
    }

    private enum Prepared {
        case done(Data)
        case inKeychain(TokenKeyUse)
    }

    private func prepare(_ operation: PrivateKeyOperation, algorithm: KeyAlgorithm) throws(KeychainFailure) -> Prepared {
        switch storage {
        case .software(let key): .done(try Self.catching { () throws(KeyCryptoError) in try operation.run(with: key, algorithm: algorithm) })
        case .kept(let key): .inKeychain(operation.use(of: key, algorithm: algorithm))
        }
    }

    /// The software key that verifies or encrypts; a kept key does neither (its private key signs, decrypts
    /// and agrees keys; its public key, ``publicHandle``, does the rest).
    private func softwareKey(for operation: String) throws(KeychainFailure) -> AsymmetricKey {
        switch storage {
        case .software(let key): return key
        case .kept: throw KeychainFailure(.param, reason: "Invalid key operation: a key that never leaves the keychain does not \(operation)")
        }
    }

    /// The value of `body`, its ``KeyCryptoError`` as the failure of Apple's status.
    static func catching<Value>(_ body: () throws(KeyCryptoError) -> Value) throws(KeychainFailure) -> Value {
        do {
            return try body()
        } catch {
            throw KeychainFailure(error)
        }
    }
}

extension KeychainFailure {
    /// The failure of a key operation run in this process: Apple's status and the cryptography's reason.
    public init(_ error: KeyCryptoError) {
        self.init(KeychainStatus(code: error.status), reason: error.message)
    }
}

extension TokenKeyCreation.Kind.Use {
    /// The use of a private-key operation; nil for verifying and encrypting, which public keys do.
    init?(_ operation: KeyOperation) {
        switch operation {
        case .sign: self = .sign
        case .decrypt: self = .decrypt
        case .keyExchange: self = .keyExchange
        case .verify, .encrypt: return nil
        }
    }
}
