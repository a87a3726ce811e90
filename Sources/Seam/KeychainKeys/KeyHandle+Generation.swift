import Foundation
import KeyCrypto
import KeychainClient
import KeychainModel
import KeychainOperations
import Query

/// Making keys: software keys here, and keys the keychain keeps, of the kinds the keychain's rule allows
/// (``TokenKeyCreation/Kind``).
extension KeyHandle {
    /// A new software key pair's private key (KeyCrypto's rules for types and sizes). RSA takes up to a
    /// second or more: callers on the cooperative pool run it on a thread of their own.
    public static func generate(type: KeyType, sizeInBits: Int) throws(KeychainFailure) -> KeyHandle {
        KeyHandle(software: try catching { () throws(KeyCryptoError) in try AsymmetricKey.generate(type: type, sizeInBits: sizeInBits) })
    }

    /// The kind of key the keychain keeps for `type` and `sizeInBits`; `errSecParam` (-50) naming the rule
    /// when it keeps none of them.
    public static func keptKind(type: KeyType, sizeInBits: Int) throws(KeychainFailure) -> TokenKeyCreation.Kind {
        guard let kind = TokenKeyCreation.Kind(keyTypeCode: type.rawValue, sizeInBits: sizeInBits) else {
            throw KeychainFailure(.param, reason: "Failed to generate keypair: \(TokenKeyCreation.Kind.rule)")
        }
        return kind
    }

    /// A new key of `kind` made inside the keychain under `accessControl`, waiting on the keychain; `tiedToItem` for a
    /// key about to be stored as a key item (``TokenKeyCreation/tiedToItem``).
    public static func generateKept(
        _ kind: TokenKeyCreation.Kind, accessControl: AccessControl, tiedToItem: Bool = false,
        authentication: TokenKeyAuthentication = .init(), through client: any KeychainClient
    ) throws(KeychainFailure) -> KeptKey {
        let handle = try client.sendBlocking(.createTokenKey(creation(kind, accessControl, tiedToItem))).tokenKeyResult()
        return try KeptKey(handle, authentication: authentication)
    }

    /// A new key of `kind` made inside the keychain under `accessControl`, the task suspended meanwhile.
    public static func generateKept(
        _ kind: TokenKeyCreation.Kind, accessControl: AccessControl, tiedToItem: Bool = false,
        authentication: TokenKeyAuthentication = .init(), through client: any KeychainClient
    ) async throws(KeychainFailure) -> KeptKey {
        let handle = try await client.send(.createTokenKey(creation(kind, accessControl, tiedToItem))).tokenKeyResult()
        return try KeptKey(handle, authentication: authentication)
    }

    private static func creation(_ kind: TokenKeyCreation.Kind, _ accessControl: AccessControl, _ tiedToItem: Bool) -> TokenKeyCreation {
        TokenKeyCreation(accessControl: accessControl, sizeInBits: kind.sizeInBits, kind: kind, tiedToItem: tiedToItem)
    }
}
