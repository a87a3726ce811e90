import Foundation
import KeyCrypto
import KeychainClient
import KeychainModel
import KeychainOperations
import Query

/// The operations of Secure Enclave keys, which the keychain runs: their private part never comes here.
enum TokenKeyOperations {
    /// Whether the keychain's P-256 or Ed25519 private key can run `algorithm` for `operation`: what a software
    /// private key of its kind supports, since the keychain runs the same code.
    static func supports(_ algorithm: KeyAlgorithm, _ operation: KeyOperation, _ publicKey: AsymmetricKey) -> Bool {
        AsymmetricKey.isSupported(algorithm, for: operation, byPrivateKeyOf: publicKey.type, sizeInBits: publicKey.sizeInBits)
    }

    /// The public key of `handle`: P-256 (X9.63) or Ed25519 (32 bytes), as its kind says.
    static func publicKey(of handle: TokenKey) throws(KeyCryptoError) -> AsymmetricKey {
        let type: KeyType = handle.kind == .ed25519 ? .ed25519 : .ellipticCurve
        return try AsymmetricKey(externalRepresentation: handle.publicKey, type: type, keyClass: .publicKey)
    }

    /// Runs `operation` with the key, asking the person first if its access control says so.
    static func use(
        _ key: TokenKey, _ operation: TokenKeyUse.Operation, _ algorithm: SecKeyAlgorithm, input: Data,
        authentication: TokenKeyAuthentication
    ) throws(KeyFailure) -> Data {
        let use = TokenKeyUse(key: key.sealed, operation: operation, algorithm: algorithm.identifier, input: input, authentication: authentication)
        do {
            return try SharedKeychain.client.sendBlocking(.useTokenKey(use)).tokenKeyUseResult()
        } catch {
            throw KeyFailure(error)
        }
    }

    /// Makes a key of `kind` with `control` in the keychain.
    static func create(_ control: AccessControl, sizeInBits: Int, kind: TokenKeyCreation.Kind) throws(KeyFailure) -> TokenKey {
        do {
            let creation = TokenKeyCreation(accessControl: control, sizeInBits: sizeInBits, kind: kind)
            return try SharedKeychain.client.sendBlocking(.createTokenKey(creation)).tokenKeyResult()
        } catch {
            throw KeyFailure(error)
        }
    }
}
