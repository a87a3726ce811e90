import Foundation
import KeychainKeys
import KeychainModel
import KeychainOperations
import KeychainSelection

/// What `init(dataRepresentation:)` of every ``SecureEnclave`` key checks, as Apple's enclave does when it is handed a
/// key blob: that this keychain made the key and it was not altered.
enum EnclaveKeySealCheck {
    /// Throws `CryptoKitError.authenticationFailure` for a handle from another keychain or altered bytes. While the
    /// key's protection class is locked the keychain cannot tell, and the handle is taken (a use then says why).
    static func check(_ handle: TokenKey) throws {
        do {
            try handle.checkSeal(through: SharedKeychainClient.current)
        } catch  where error.status == .authFailed {
            throw CryptoKitError.authenticationFailure
        } catch  where error.status == .interactionNotAllowed {
            return
        } catch {
            throw EnclaveKeyError.error(error)
        }
    }
}
