import CofferRuntime
import Foundation
import KeyCrypto
import KeychainClient
import KeychainKeys
import KeychainModel
import KeychainOperations
import Query

/// Making the key that ``Keychain/generateKey(type:sizeInBits:tag:label:accessGroup:accessibility:accessControl:neverLeavesKeychain:)``
/// stores.
extension Keychain {
    /// A software key, as `SecKeyCreateRandomKey` makes one (KeyCrypto's rules for types and sizes). RSA keys
    /// are generated on a thread of their own; EC and Ed25519 keys take microseconds and are made in place.
    static func makeSoftwareKey(type: KeyType, sizeInBits: Int) async throws(KeychainError) -> PrivateKey {
        let generate: @Sendable () -> Result<KeyHandle, KeychainFailure> = {
            Result { () throws(KeychainFailure) in try KeyHandle.generate(type: type, sizeInBits: sizeInBits) }
        }
        let result = type == .rsa ? await OwnThread.run(named: "coffer-keygen", generate) : generate()
        switch result {
        case .success(let key): return PrivateKey(key)
        case .failure(let error): throw KeychainError(error, operation: .generateKey)
        }
    }

    /// A key made inside the keychain (`createTokenKey`), as `SecKeyCreateRandomKey` with
    /// `kSecAttrTokenIDSecureEnclave` makes one: of a kind the keychain keeps (P-256, or Ed25519; another type
    /// or size is `errSecParam`), under the given access control, else Apple's default for the protection class.
    func makeTokenKey(
        type: KeyType, sizeInBits: Int, accessibility: Accessibility?, accessControl: AccessControl?
    ) async throws(KeychainError) -> PrivateKey {
        let control = accessControl ?? TokenKeyCreation.defaultAccessControl(protection: accessibility)
        do {
            let kind = try KeyHandle.keptKind(type: type, sizeInBits: sizeInBits)
            // Stored as a key item at once (`generateKey`): the key lives as long as its item.
            return PrivateKey(KeyHandle(kept: try await KeyHandle.generateKept(kind, accessControl: control, tiedToItem: true, through: client)))
        } catch {
            throw KeychainError(error, operation: .generateKey)
        }
    }
}
