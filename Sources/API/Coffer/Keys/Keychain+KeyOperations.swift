import Foundation
import KeyCrypto
import KeychainClient
import KeychainKeys
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
        try await perform(.sign(data), with: key, algorithm, authenticationContext, reason, operation: .sign)
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
        try await perform(.decrypt(ciphertext), with: key, algorithm, authenticationContext, reason, operation: .decrypt)
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
        let exchange = PrivateKeyOperation.keyExchange(peer: peer.material, requestedSize: requestedSize, sharedInfo: sharedInfo)
        return try await perform(exchange, with: key, algorithm, authenticationContext, reason, operation: .keyExchange)
    }

    /// Runs `operation` with `key` (``KeyHandle/perform(_:algorithm:through:)``): here for a software key; in
    /// the keychain for a key that never leaves it, whose uses carry `context` and `reason`, the client
    /// authenticating and resending when the key's access control asks for the person.
    private func perform(
        _ operation: PrivateKeyOperation, with key: PrivateKey, _ algorithm: KeyAlgorithm, _ context: AuthenticationContext?,
        _ reason: String?, operation name: KeychainError.Operation
    ) async throws(KeychainError) -> Data {
        let authentication = TokenKeyAuthentication(
            context: context?.id, prompt: reason ?? "", interactive: !(context?.interactionNotAllowed ?? false))
        do {
            return try await key.handle.authenticating(with: authentication).perform(operation, algorithm: algorithm, through: client)
        } catch {
            throw KeychainError(error, operation: name)
        }
    }
}
