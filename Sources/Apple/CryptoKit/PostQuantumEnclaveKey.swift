import Foundation
import KeychainKeys
import KeychainModel
import KeychainOperations
import KeychainSelection
import LocalAuthentication
import Security

/// An ML-KEM or ML-DSA key the keychain keeps, with the context its uses authenticate with: what the post-quantum
/// ``SecureEnclave`` private keys hold. Its seed is sealed by the keystore exactly as a P-256 key's scalar is.
struct PostQuantumEnclaveKey: Sendable {
    let key: KeptPostQuantumKey

    /// A new key of `kind` made by the keychain.
    init(_ kind: TokenKeyCreation.Kind, accessControl: SecAccessControl, context: LAContext?) throws {
        do {
            key = try KeptPostQuantumKey.generate(
                kind, accessControl: accessControl.accessControl, authentication: Self.authentication(context), through: SharedKeychainClient.current)
        } catch {
            throw EnclaveKeyError.error(error)
        }
    }

    /// The key of `kind` that `dataRepresentation` stands for. Bytes that are no such key's handle throw
    /// `CryptoKitError.incorrectParameterSize`; a handle from another keychain, or altered,
    /// `CryptoKitError.authenticationFailure` (``EnclaveKeySealCheck``).
    init(_ kind: TokenKeyCreation.Kind, dataRepresentation: some DataProtocol, context: LAContext?) throws {
        guard let key = KeptPostQuantumKey(sealed: Data(dataRepresentation), kind: kind, authentication: Self.authentication(context)) else {
            throw CryptoKitError.incorrectParameterSize
        }
        try EnclaveKeySealCheck.check(key.handle)
        self.key = key
    }

    /// The handle to keep to use the key again.
    var dataRepresentation: Data { key.handle.sealed }

    /// The shared secret `encapsulated` carries, recovered in the keychain. A ciphertext of the wrong length throws
    /// `CryptoKitError.incorrectParameterSize` here, as swift-crypto's keys do.
    func decapsulate(_ encapsulated: some DataProtocol, length: Int) throws -> SymmetricKey {
        guard encapsulated.count == length else { throw CryptoKitError.incorrectParameterSize }
        do {
            var secret = try key.decapsulate(Data(encapsulated), through: SharedKeychainClient.current)
            defer { secret.resetBytes(in: 0..<secret.count) }
            return SymmetricKey(data: secret)
        } catch {
            throw EnclaveKeyError.error(error)
        }
    }

    /// An ML-DSA signature of `data` with `context` (at most 255 bytes), made in the keychain.
    func signature(for data: some DataProtocol, context: some DataProtocol) throws -> Data {
        guard context.count <= 255 else { throw CryptoKitError.incorrectParameterSize }
        do {
            return try key.signature(for: Data(data), context: Data(context), through: SharedKeychainClient.current)
        } catch {
            throw EnclaveKeyError.error(error)
        }
    }

    private static func authentication(_ context: LAContext?) -> TokenKeyAuthentication {
        guard let reference = context?.authenticationContextReference else { return TokenKeyAuthentication() }
        return TokenKeyAuthentication(context: reference.context, interactive: !reference.interactionNotAllowed)
    }
}
