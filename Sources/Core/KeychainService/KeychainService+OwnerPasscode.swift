import KeychainModel
import KeychainOperations
import Keystore

extension KeychainService {
    /// Checks `passcode` when the keychain has one (counted as an unlock attempt, charged to `caller`): nil when the
    /// call may go on, the refusal otherwise. `purpose` ends the reason when none was given ("exporting a backup").
    func ownerPasscodeRefusal(_ passcode: SecretBytes?, caller: CallerContext, purpose: String) -> Response? {
        do {
            let keystore = try keystore()
            guard keystore.isPasscodeSet else { return nil }
            guard let passcode else { return .failure(.authFailed, reason: "the keychain has a passcode; \(purpose) needs it") }
            try PasscodeVerifier(keystore: keystore).verify(passcode, charging: caller.passcodeAttempts)
            return nil
        } catch {
            return .keystoreError(error)
        }
    }
}
