import BackupFormat
import KeychainModel
import KeychainOperations
import Keystore
import TrustedPlatformModule

extension KeychainService {
    /// Answers ``Request/deviceKeyBinding(_:)``: the keystore moves its device key, or shows its recovery key; a
    /// recovery opens the folder's files without the TPM, after which the keychain is opened afresh.
    func deviceKeyBinding(_ change: DeviceKeyBindingChange, caller: CallerContext) -> Response {
        do throws(KeystoreError) {
            switch change {
            case .bindTPM(let passcode, let pcrs):
                var selection: PCRSelection?
                if let pcrs {
                    do {
                        selection = try PCRSelection(pcrs)
                    } catch {
                        throw .tpmUnavailable(reason: error.reason)
                    }
                }
                guard let key = try keystore().bindToTPM(passcode: passcode, pcrs: selection, charging: caller.passcodeAttempts) else {
                    return .status(.success)
                }
                return .recoveryKey(key)
            case .unbindTPM(let passcode):
                try keystore().unbindFromTPM(passcode: passcode, charging: caller.passcodeAttempts)
                return .status(.success)
            case .recoveryKey(let renew, let passcode):
                return .recoveryKey(try keystore().recoveryKey(renew: renew, passcode: passcode, charging: caller.passcodeAttempts))
            case .recover(let text, let passcode):
                if (try? engine()) != nil {
                    throw .tpmUnavailable(reason: "this keychain opens with its TPM: there is nothing to recover")
                }
                let recoveryKey: RecoveryKey
                do {
                    recoveryKey = try RecoveryKey.parse(text)
                } catch {
                    throw .wrongRecoveryKey
                }
                _ = try Keystore.recover(folder: folder, recoveryKey: recoveryKey, passcode: passcode, tpm: tpm)
                return .status(.success)
            }
        } catch {
            return .keystoreError(error)
        }
    }
}
