import BackupFormat
import Crypto
import Foundation
import KeychainModel
import TrustedPlatformModule

extension Keystore {
    /// Opens a keychain whose TPM can no longer unseal it (cleared, replaced, the disk moved) with its recovery key
    /// and passcode, and binds it again: to the TPM `tpm` selects when there is one (to the same PCRs, at their
    /// present values), else to a `device.key` file.
    ///
    /// The recovery key opens the device key's copy (a wrong one throws ``KeystoreError/wrongRecoveryKey``); the
    /// passcode then opens the recovery copies of the passcode-protected class keys, counted in the keybag as any
    /// attempt is (a wrong one throws ``KeystoreError/wrongPasscode(failedAttempts:retryAfter:)``). Items are not
    /// touched. Returns the keystore, unlocked.
    public static func recover(
        folder: KeychainFolder, recoveryKey: RecoveryKey, passcode: SecretBytes?, tpm selection: TPMSelection = .fromEnvironment(),
        clock: any KeystoreClock = SystemClock()
    ) throws(KeystoreError) -> Keystore {
        try SecureFile.withExclusiveLock(folder.keybagLockURL) { () throws(KeystoreError) -> Keystore in
            guard let old = try TPMDeviceKeyFile.load(from: folder.tpmDeviceKeyURL) else {
                throw .tpmUnavailable(reason: "this keychain is not bound to a TPM: there is nothing to recover")
            }
            let deviceKey = try DeviceKeyEscrow.open(old.escrow, recoveryKey: recoveryKey)
            guard var keybag = try KeybagFile.load(from: folder.keybagURL, deviceKey: deviceKey) else {
                throw .keybagDamaged(reason: "the file is missing")
            }
            let classKeys = try recoveryClassKeys(&keybag, passcode: passcode, deviceKey: deviceKey, folder: folder, clock: clock)
            let binding = try rebind(folder: folder, old: old, deviceKey: deviceKey, selection: selection)
            let keystore = try Keystore(
                folder: folder, deviceKey: deviceKey, binding: binding, tpmSelection: selection, clock: clock, keybag: keybag)
            if let record = keybag.passcode, let passcode {
                try keystore.rewrap(&keybag, classKeys: classKeys, newPasscode: passcode, kdf: record.kdf)
            }
            keybag.boundToTPM = binding.isTPM ? true : nil
            try KeybagFile.store(keybag, to: folder.keybagURL, deviceKey: deviceKey)
            if binding.isTPM {
                try? FileManager.default.removeItem(at: folder.deviceKeyURL)
            } else {
                try? FileManager.default.removeItem(at: folder.tpmDeviceKeyURL)
            }
            keystore.transition { state in
                for (protection, key) in classKeys { state.classKeys[protection] = ClassKeyMaterial(classKey: key, protection: protection) }
                state.lockState = .unlocked
            }
            return keystore
        }
    }

    /// The passcode-protected class keys from their recovery copies, the attempt counted before the KDF runs.
    private static func recoveryClassKeys(
        _ keybag: inout Keybag, passcode: SecretBytes?, deviceKey: DeviceKey, folder: KeychainFolder, clock: any KeystoreClock
    ) throws(KeystoreError) -> [ProtectionClass: SymmetricKey] {
        guard let record = keybag.passcode else { return [:] }
        guard let passcode else { throw .ownerProofRequired(reason: "the keychain's passcode is needed with its recovery key") }
        guard let copies = keybag.recoveryClassKeys else {
            throw .keybagDamaged(reason: "it has no recovery copies of the passcode-protected class keys")
        }
        let wait = remainingDelay(keybag, now: clock.now())
        guard wait == .zero else { throw .throttled(retryAfter: wait) }
        keybag.failedAttempts += 1
        keybag.lastAttemptTime = clock.now().timeIntervalSince1970
        try KeybagFile.store(keybag, to: folder.keybagURL, deviceKey: deviceKey)
        let stretched: SymmetricKey
        do {
            stretched = try record.kdf.stretch(passcode, salt: record.salt)
        } catch {
            throw .keybagDamaged(reason: "its passcode parameters are not usable")
        }
        let key = deviceKey.derivedKey(recoveryPasscodeKeyLabel, salt: stretched)
        var classKeys: [ProtectionClass: SymmetricKey] = [:]
        for protection in ProtectionClass.allCases {
            guard let wrapped = copies[protection.rawValue] else { continue }
            guard let classKey = try? KeyWrap.unwrap(wrapped, with: key) else {
                try KeybagFile.store(keybag, to: folder.keybagURL, deviceKey: deviceKey)
                throw .wrongPasscode(
                    failedAttempts: keybag.failedAttempts, retryAfter: ThrottlePolicy().delay(afterFailedAttempts: keybag.failedAttempts))
            }
            classKeys[protection] = classKey
        }
        keybag.failedAttempts = 0
        keybag.lastAttemptTime = nil
        return classKeys
    }

    /// The device key sealed again: by the selected TPM (keeping the copy under the recovery key), or into a file.
    private static func rebind(
        folder: KeychainFolder, old: TPMDeviceKeyFile, deviceKey: DeviceKey, selection: TPMSelection
    ) throws(KeystoreError) -> DeviceKeyBinding {
        guard let tcti = selection.configuration else {
            try deviceKey.write(to: folder.deviceKeyURL)
            return .file
        }
        do {
            let tpm = try TPMSelection.open(tcti)
            let sealed = TPMDeviceKeyFile(
                storageRootKey: tpm.storageRootKey, sealedDeviceKey: try tpm.seal(deviceKey.bytes, pcrs: old.pcrs),
                passcodeHMACKey: try tpm.createHMACKey(), escrow: old.escrow, pendingRecoveryKey: Data(),
                route: .init(of: tpm), pcrs: old.pcrs)
            try sealed.write(to: folder.tpmDeviceKeyURL)
            return .tpm(tpm, sealed)
        } catch let error as TPMError {
            throw .tpmUnavailable(reason: "the keychain cannot be sealed by the TPM at \(tcti): \(error.reason)")
        } catch {
            throw error as? KeystoreError ?? .io(reason: "cannot write the device key")
        }
    }
}
