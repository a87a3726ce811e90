import CofferRuntime
import Foundation
import KeyCrypto
import KeychainClient
import KeychainModel
import KeychainOperations
import Query

/// Making the key that ``Keychain/generateKey(type:sizeInBits:tag:label:accessGroup:accessibility:accessControl:neverLeavesKeychain:)``
/// stores.
extension Keychain {
    /// A software key, as `SecKeyCreateRandomKey` makes one (KeyCrypto's rules for types and sizes). RSA keys
    /// are generated on a thread of their own; EC keys take microseconds and are made in place.
    static func makeSoftwareKey(type: KeyType, sizeInBits: Int) async throws(KeychainError) -> PrivateKey {
        let generate: @Sendable () -> Result<AsymmetricKey, KeyCryptoError> = {
            Result { () throws(KeyCryptoError) in try AsymmetricKey.generate(type: type, sizeInBits: sizeInBits) }
        }
        let result = type == .rsa ? await OwnThread.run(named: "coffer-keygen", generate) : generate()
        switch result {
        case .success(let key): return PrivateKey(software: key)
        case .failure(let error): throw KeychainError(error, operation: .generateKey)
        }
    }

    /// A P-256 key made inside the keychain (`createTokenKey`), as `SecKeyCreateRandomKey` with
    /// `kSecAttrTokenIDSecureEnclave` makes one: the given access control, else Apple's default for the
    /// protection class. The keychain refuses other sizes with `errSecParam`; other types are refused here.
    func makeTokenKey(
        type: KeyType, sizeInBits: Int, accessibility: Accessibility?, accessControl: AccessControl?
    ) async throws(KeychainError) -> PrivateKey {
        guard type == .ellipticCurve else {
            throw KeychainError(
                status: .param, operation: .generateKey,
                reason: "Failed to generate keypair: a key that never leaves the keychain is a 256-bit elliptic-curve key.")
        }
        let control = accessControl ?? TokenKeyCreation.defaultAccessControl(protection: accessibility)
        let handle: TokenKey
        do {
            handle = try await client.send(.createTokenKey(TokenKeyCreation(accessControl: control, sizeInBits: sizeInBits))).tokenKeyResult()
        } catch {
            throw KeychainError(error, operation: .generateKey)
        }
        let publicKey = try PublicKey(externalRepresentation: handle.publicKey, type: .ellipticCurve)
        return PrivateKey(token: handle, publicKey: publicKey)
    }
}
