import KeychainModel
import TrustedPlatformModule

extension Keystore {
    /// What protects the device key now. For a keychain whose device key is a file, the first call asks the selected
    /// TPM whether it could bind the keychain (three TPM commands, once per keystore), so the answer can say why not.
    public var deviceKeyProtection: DeviceKeyProtection {
        switch state.withLock({ $0.binding }) {
        case .tpm(let tpm, let sealed):
            return .tpm(
                DeviceKeyProtection.TPMBinding(
                    tcti: tpm.tcti, storageRootKeyFingerprint: sealed.storageRootKey.fingerprint, pcrs: sealed.pcrs.list,
                    recoveryKeyPending: !sealed.pendingRecoveryKey.isEmpty))
        case .file:
            if let probed = state.withLock({ $0.tpmProbe }) { return .file(whyNoTPM: probed) }
            let whyNot = whyNoTPM()
            state.withLock { $0.tpmProbe = .some(whyNot) }
            return .file(whyNoTPM: whyNot)
        }
    }

    /// The commands this keystore has sent to its TPM since it opened (for the figures: an unlock sends at most two);
    /// nil when the keychain is not bound to a TPM.
    public var tpmCommandsSent: Int? {
        if case .tpm(let tpm, _) = state.withLock({ $0.binding }) { return tpm.commandsSent }
        return nil
    }

    /// Why the selected TPM could not bind this keychain, or nil when it could.
    private func whyNoTPM() -> String? {
        guard let tcti = tpmSelection.configuration else {
            return DeviceKeyProtection.noTPMSelected
        }
        do {
            _ = try TPMSelection.open(tcti)
            return nil
        } catch {
            return error.reason
        }
    }

    /// The TPM `tpmSelection` names, opened, for binding.
    func selectedTPM() throws(KeystoreError) -> any TPMDevice {
        guard let tcti = tpmSelection.configuration else {
            throw .tpmUnavailable(
                reason: "no TPM is selected: set COFFER_TPM to its TCTI, or make \(TPMSelection.kernelResourceManager) usable (group tss)")
        }
        do {
            return try TPMSelection.open(tcti)
        } catch {
            throw .tpmUnavailable(reason: error.reason)
        }
    }
}
