import Foundation
import KeyCrypto
import KeychainClient
import KeychainModel
import KeychainOperations

/// What keys do: sign, verify, encrypt, decrypt and agree keys, with Apple's algorithms (`SecKeyAlgorithm`)
/// and statuses.
///
/// A software key works in this process; the work is short (microseconds for EC, milliseconds for RSA) and
/// runs in the calling task. A key that never leaves the keychain is used by the keychain: the call is sent to
/// it, and when the key's access control asks for the person (`privateKeyUsage` with `.userPresence`), the
/// keychain prompts, or uses `authenticationContext`'s proof, as for protected items.
extension Keychain {
    /// The signature of `data` (a message or a digest, as `algorithm` says) with `key`
    /// (`SecKeyCreateSignature`), such as `KeyAlgorithm.ecdsaSignatureMessageX962SHA256` (DER, X9.62) or
    /// `KeyAlgorithm.rsaSignatureMessagePSSSHA256`.
    ///
    /// - Parameters:
    ///   - authenticationContext: the proof a key that never leaves the keychain may need; nil lets the
    ///     keychain prompt when its access control asks for the person.
    ///   - reason: what the prompt tells the person (`kSecUseOperationPrompt`).
    /// - Throws: ``KeychainError`` with `errSecParam` (-50) for an algorithm the key does not support or input it
    ///   cannot take; for a key that never leaves the keychain, `errSecUserCanceled` (-128) when the person
    ///   declines, `errSecInteractionNotAllowed` (-25308) when the keychain is locked or nobody may be asked,
    ///   `errSecAuthFailed` (-25293) for a key another keychain made.
    public func sign(
        _ data: Data, with key: PrivateKey, algorithm: KeyAlgorithm, authenticationContext: AuthenticationContext? = nil,
        reason: String? = nil
    ) async throws(KeychainError) -> Data {
        switch key.material {
        case .software(let material):
            do {
                return try material.signature(for: data, algorithm: algorithm)
            } catch {
                throw KeychainError(error, operation: .sign)
            }
        case .token(let handle):
            return try await use(handle, .sign, algorithm, input: data, authenticationContext, reason, operation: .sign)
        }
    }

    /// Whether `signature` signs `data` under `key` (`SecKeyVerifySignature`): false when it does not match;
    /// ``PublicKey/isValidSignature(_:for:algorithm:)`` in a call of the keychain's.
    public func verify(_ signature: Data, for data: Data, with key: PublicKey, algorithm: KeyAlgorithm) async throws(KeychainError) -> Bool {
        try key.isValidSignature(signature, for: data, algorithm: algorithm)
    }

    /// `plaintext` encrypted to `key` (`SecKeyCreateEncryptedData`), such as with
    /// `KeyAlgorithm.rsaEncryptionOAEPSHA256` or `KeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM`;
    /// ``PublicKey/encrypt(_:algorithm:)`` in a call of the keychain's.
    public func encrypt(_ plaintext: Data, for key: PublicKey, algorithm: KeyAlgorithm) async throws(KeychainError) -> Data {
        try key.encrypt(plaintext, algorithm: algorithm)
    }

    /// The plaintext of `ciphertext`, which was encrypted to `key`'s public key with `algorithm`
    /// (`SecKeyCreateDecryptedData`): RSA PKCS#1 v1.5 or OAEP, or ECIES (also for a key that never leaves the
    /// keychain). The plaintext is a secret: keep it out of logs.
    ///
    /// A ciphertext that does not decrypt throws ``KeychainError`` with `errSecParam` (-50), as Apple's does.
    public func decrypt(
        _ ciphertext: Data, with key: PrivateKey, algorithm: KeyAlgorithm, authenticationContext: AuthenticationContext? = nil,
        reason: String? = nil
    ) async throws(KeychainError) -> Data {
        switch key.material {
        case .software(let material):
            do {
                return try material.decrypt(ciphertext, algorithm: algorithm)
            } catch {
                throw KeychainError(error, operation: .decrypt)
            }
        case .token(let handle):
            return try await use(handle, .decrypt, algorithm, input: ciphertext, authenticationContext, reason, operation: .decrypt)
        }
    }

    /// The secret `key` agrees on with `peer` (ECDH, `SecKeyCopyKeyExchangeResult`): with
    /// `KeyAlgorithm.ecdhKeyExchangeStandard` the raw shared secret (the x-coordinate, as long as the field);
    /// with the X9.63 algorithms (`KeyAlgorithm.ecdhKeyExchangeStandardX963SHA256`) `requestedSize` bytes
    /// derived with `sharedInfo`. The secret is a secret: keep it out of logs.
    ///
    /// A peer that is no EC public key, or an X9.63 algorithm without `requestedSize`, throws ``KeychainError``
    /// with `errSecParam` (-50); a peer on another curve `errSecDecode` (-26275).
    public func sharedSecret(
        with peer: PublicKey, using key: PrivateKey, algorithm: KeyAlgorithm = .ecdhKeyExchangeStandard,
        requestedSize: Int? = nil, sharedInfo: Data? = nil, authenticationContext: AuthenticationContext? = nil,
        reason: String? = nil
    ) async throws(KeychainError) -> Data {
        switch key.material {
        case .software(let material):
            do {
                return try material.sharedSecret(with: peer.material, algorithm: algorithm, requestedSize: requestedSize, sharedInfo: sharedInfo)
            } catch {
                throw KeychainError(error, operation: .keyExchange)
            }
        case .token(let handle):
            return try await use(
                handle, .keyExchange(requestedSize: requestedSize, sharedInfo: sharedInfo), algorithm,
                input: peer.externalRepresentation, authenticationContext, reason, operation: .keyExchange)
        }
    }

    /// Has the keychain run `use` with a key that never leaves it (`useTokenKey`); the client authenticates
    /// and resends when the key's access control asks for the person.
    private func use(
        _ handle: TokenKey, _ use: TokenKeyUse.Operation, _ algorithm: KeyAlgorithm, input: Data,
        _ context: AuthenticationContext?, _ reason: String?, operation: KeychainError.Operation
    ) async throws(KeychainError) -> Data {
        let authentication = TokenKeyAuthentication(
            context: context?.id, prompt: reason ?? "", interactive: !(context?.interactionNotAllowed ?? false))
        let request = TokenKeyUse(key: handle.sealed, operation: use, algorithm: algorithm.rawValue, input: input, authentication: authentication)
        do {
            return try await client.send(.useTokenKey(request)).tokenKeyUseResult()
        } catch {
            throw KeychainError(error, operation: operation)
        }
    }
}
