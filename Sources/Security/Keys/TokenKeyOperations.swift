import Foundation
import KeyCrypto
import KeychainClient
import KeychainModel
import KeychainOperations
import Query

/// The operations of Secure Enclave keys, which the keychain runs: their private part never comes here.
enum TokenKeyOperations {
    /// Whether the keychain's P-256 private key can run `algorithm` for `operation`: what a software P-256
    /// private key supports, since the keychain runs the same code.
    static func supports(_ algorithm: KeyAlgorithm, _ operation: KeyOperation, _ publicKey: AsymmetricKey) -> Bool {
        AsymmetricKey.isSupported(algorithm, for: operation, byPrivateKeyOf: .ellipticCurve, sizeInBits: publicKey.sizeInBits)
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

    /// Makes a key with `control` in the keychain.
    static func create(_ control: AccessControl, sizeInBits: Int) throws(KeyFailure) -> TokenKey {
        do {
            return try SharedKeychain.client.sendBlocking(.createTokenKey(TokenKeyCreation(accessControl: control, sizeInBits: sizeInBits)))
                .tokenKeyResult()
        } catch {
            throw KeyFailure(error)
        }
    }
}
