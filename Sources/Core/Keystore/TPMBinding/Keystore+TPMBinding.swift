import BackupFormat
import Crypto
import Foundation
import KeychainModel
import TrustedPlatformModule

// Moving a keychain's device key into the TPM and back, and its recovery key. Items are never re-encrypted: the
// device key keeps its value, and only the keybag's wrapping of the passcode-protected class keys changes.
extension Keystore {
    /// Seals the device key by the selected TPM and tangles the passcode with it; returns the new recovery key's printed
    /// form, to be shown once. Needs the passcode when one is set (a wrong one is charged to `attempts`).
    ///
    /// `pcrs` binds the device key to those PCRs' present values too (none: to the chip alone). For a keychain
    /// already bound, `pcrs` seals its device key again to the PCRs given, on the same TPM, and nil is returned: the
    /// recovery key stays the same.
    ///
    /// The order survives a crash at any point: `device-key.tpm` is written, then the keybag (which says the TPM is
    /// now current), then `device.key` is removed; an open that finds both files keeps the one the keybag names.
    public func bindToTPM(
        passcode: SecretBytes?, pcrs: PCRSelection? = nil, charging attempts: PasscodeAttempts = .keybag
    ) throws(KeystoreError) -> SecretBytes? {
        guard case .file = state.withLock({ $0.binding }) else {
            guard let pcrs else { throw .tpmUnavailable(reason: "this keychain is already bound to a TPM") }
            try sealAgain(to: pcrs, passcode: passcode, charging: attempts)
            return nil
        }
        let classKeys = try passcodeProtectedClassKeys(passcode, charging: attempts)
        let tpm = try selectedTPM()
        let recoveryKey = RecoveryKey.generate()
        let sealed: TPMDeviceKeyFile
        do {
            sealed = TPMDeviceKeyFile(
                storageRootKey: tpm.storageRootKey, sealedDeviceKey: try tpm.seal(deviceKey.bytes, pcrs: pcrs ?? .none),
                passcodeHMACKey: try tpm.createHMACKey(), escrow: try DeviceKeyEscrow.seal(deviceKey, recoveryKey: recoveryKey),
                pendingRecoveryKey: Data(), route: .init(of: tpm), pcrs: pcrs ?? .none)
        } catch let error as TPMError {
            throw .tpmUnavailable(reason: error.reason)
        } catch {
            throw error as? KeystoreError ?? .io(reason: "cannot seal the device key")
        }
        try sealed.write(to: folder.tpmDeviceKeyURL)
        do {
            try moveBinding(to: .tpm(tpm, sealed), classKeys: classKeys, passcode: passcode)
        } catch {
            try? FileManager.default.removeItem(at: folder.tpmDeviceKeyURL)
            throw error
        }
        try? FileManager.default.removeItem(at: folder.deviceKeyURL)
        logger.info("device key sealed by the TPM", metadata: ["tcti": "\(tpm.tcti)"])
        return recoveryKey.formatted()
    }

    /// Seals the device key again by its TPM, to `pcrs`' present values (none: to the chip alone). Needs the
    /// passcode when one is set. Only `device-key.tpm`'s sealed device key changes, written atomically.
    private func sealAgain(to pcrs: PCRSelection, passcode: SecretBytes?, charging attempts: PasscodeAttempts) throws(KeystoreError) {
        guard case .tpm(let tpm, var sealed) = state.withLock({ $0.binding }) else {
            throw .tpmUnavailable(reason: "this keychain is not bound to a TPM")
        }
        _ = try passcodeProtectedClassKeys(passcode, charging: attempts)
        do {
            sealed.sealedDeviceKey = try tpm.seal(deviceKey.bytes, pcrs: pcrs)
        } catch {
            throw .tpmUnavailable(reason: error.reason)
        }
        sealed.pcrs = pcrs
        try SecureFile.withExclusiveLock(folder.keybagLockURL) { () throws(KeystoreError) in try sealed.write(to: folder.tpmDeviceKeyURL) }
        state.withLock { $0.binding = .tpm(tpm, sealed) }
        logger.info("device key sealed again", metadata: ["pcrs": "\(pcrs)"])
    }

    /// Moves the device key back into `device.key` and untangles the passcode from the TPM. Needs the passcode when one
    /// is set. The TPM's objects become useless: nothing else needs it afterwards.
    public func unbindFromTPM(passcode: SecretBytes?, charging attempts: PasscodeAttempts = .keybag) throws(KeystoreError) {
        guard case .tpm = state.withLock({ $0.binding }) else { throw .tpmUnavailable(reason: "this keychain is not bound to a TPM") }
        let classKeys = try passcodeProtectedClassKeys(passcode, charging: attempts)
        try deviceKey.write(to: folder.deviceKeyURL)
        do {
            try moveBinding(to: .file, classKeys: classKeys, passcode: passcode)
        } catch {
            try? FileManager.default.removeItem(at: folder.deviceKeyURL)
            throw error
        }
        try? FileManager.default.removeItem(at: folder.tpmDeviceKeyURL)
        logger.info("device key moved out of the TPM")
    }

    /// The recovery key's printed form: the one made with the keychain, the first time it is asked for (it is then
    /// forgotten), or a new one when `renew` (the old one then stops working). Needs the passcode when one is set.
    public func recoveryKey(renew: Bool, passcode: SecretBytes?, charging attempts: PasscodeAttempts = .keybag) throws(KeystoreError) -> SecretBytes {
        guard case .tpm(let tpm, var sealed) = state.withLock({ $0.binding }) else {
            throw .tpmUnavailable(reason: "this keychain is not bound to a TPM, so it has no recovery key")
        }
        _ = try passcodeProtectedClassKeys(passcode, charging: attempts)
        let recoveryKey: RecoveryKey
        if !renew, !sealed.pendingRecoveryKey.isEmpty {
            do {
                recoveryKey = RecoveryKey(key: try tpm.unseal(sealed.pendingRecoveryKey))
            } catch {
                throw .tpmUnavailable(reason: error.reason)
            }
        } else if renew {
            recoveryKey = RecoveryKey.generate()
            sealed.escrow = try DeviceKeyEscrow.seal(deviceKey, recoveryKey: recoveryKey)
        } else {
            throw .tpmUnavailable(
                reason: "the recovery key was shown once already and is not kept; make a new one with coffer keystore recovery-key --new")
        }
        sealed.pendingRecoveryKey = Data()
        try SecureFile.withExclusiveLock(folder.keybagLockURL) { () throws(KeystoreError) in try sealed.write(to: folder.tpmDeviceKeyURL) }
        state.withLock { $0.binding = .tpm(tpm, sealed) }
        return recoveryKey.formatted()
    }

    /// The passcode-protected class keys (checking `passcode`, charged to `attempts`), or none without a passcode.
    private func passcodeProtectedClassKeys(
        _ passcode: SecretBytes?, charging attempts: PasscodeAttempts
    ) throws(KeystoreError) -> [ProtectionClass: SymmetricKey] {
        guard isPasscodeSet else { return [:] }
        guard let passcode else { throw .ownerProofRequired(reason: "the keychain's passcode is needed to move or show its keys") }
        return try verifyPasscode(passcode, charging: attempts)
    }

    /// Makes `binding` current: the keybag's passcode wrapping under it (same passcode, same KDF), and its flag.
    func moveBinding(to binding: DeviceKeyBinding, classKeys: [ProtectionClass: SymmetricKey], passcode: SecretBytes?) throws(KeystoreError) {
        let previous = state.withLock { state in
            let previous = state.binding
            state.binding = binding
            return previous
        }
        do {
            try updateKeybag { keybag throws(KeystoreError) in
                if let record = keybag.passcode, let passcode {
                    try rewrap(&keybag, classKeys: classKeys, newPasscode: passcode, kdf: record.kdf)
                }
                keybag.boundToTPM = binding.isTPM ? true : nil
            } then: { _ in
            }
        } catch {
            state.withLock { $0.binding = previous }
            throw error
        }
    }
}
