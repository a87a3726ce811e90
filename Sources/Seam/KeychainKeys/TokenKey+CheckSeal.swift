import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations

extension TokenKey {
    /// Asks the keychain whether it made this key and the key was not altered: it opens the seal, uses nothing and
    /// asks no one. A seal it cannot open throws `errSecAuthFailed` (-25293); while the key's class is locked, it
    /// cannot tell and throws `errSecInteractionNotAllowed` (-25308).
    public func checkSeal(through client: any KeychainClient) throws(KeychainFailure) {
        let use = TokenKeyUse(key: sealed, operation: .checkSeal, algorithm: "", input: Data())
        _ = try client.sendBlocking(.useTokenKey(use)).itemResult()
    }
}
