import BackupFormat
import CofferDiagnostics
import Foundation
import KeychainModel
import TrustedPlatformModule

// Finding the device key at open: in its file, unsealed by the TPM, or made for a new keychain.
extension Keystore {
    /// What people are told to do when the TPM that sealed a keychain cannot open it.
    static let recoveryAdvice = "open it with its recovery key and passcode: coffer keystore recover"

    /// The device key and how it is bound, with the keychain's lock held. `keybagExists` says whether the folder
    /// already holds a keychain (a missing device key is then damage, never replaced).
    static func openDeviceKey(
        folder: KeychainFolder, selection: TPMSelection, keybagExists: Bool
    ) throws(KeystoreError) -> (DeviceKey, DeviceKeyBinding) {
        let sealed = try TPMDeviceKeyFile.load(from: folder.tpmDeviceKeyURL)
        let file = try DeviceKey.load(from: folder.deviceKeyURL)
        switch (sealed, file) {
        case (let sealed?, let file?):
            return try finishInterruptedMove(folder: folder, sealed: sealed, file: file, selection: selection)
        case (let sealed?, nil):
            let tpm = try unsealingTPM(for: sealed, selection: selection)
            return (try unsealDeviceKey(sealed, with: tpm), .tpm(tpm, sealed))
        case (nil, let file?):
            return (file, .file)
        case (nil, nil):
            guard !keybagExists else { throw .deviceKeyDamaged(reason: "the file is missing but the keybag exists") }
            return try createDeviceKey(folder: folder, selection: selection)
        }
    }

    /// Opens the TPM `selection` names and checks that it is the one `sealed` was sealed to. Unless `COFFER_TPM` names
    /// one, a keychain sealed through the system cofferd's TPM service goes on using it, even for a user who may now
    /// open the TPM: its objects answer only through the service.
    static func unsealingTPM(for sealed: TPMDeviceKeyFile, selection: TPMSelection) throws(KeystoreError) -> any TPMDevice {
        let chosen = sealed.route == .systemService && (selection.isDefault || selection == .none) ? .systemServiceDefault : selection
        guard let tcti = chosen.configuration else {
            throw .tpmUnavailable(
                reason: "this keychain's device key is sealed by a TPM, and no TPM is selected (COFFER_TPM is none, or "
                    + "\(TPMSelection.kernelResourceManager) cannot be opened by this process); \(recoveryAdvice)")
        }
        let tpm: any TPMDevice
        do {
            tpm = try TPMSelection.open(tcti)
        } catch {
            throw .tpmUnavailable(reason: "\(error.reason); \(recoveryAdvice)")
        }
        guard tpm.storageRootKey == sealed.storageRootKey else {
            throw .tpmUnavailable(
                reason: "this keychain is bound to another TPM (storage root key \(sealed.storageRootKey.fingerprint.prefix(16))…), "
                    + "and the TPM at \(tcti) has \(tpm.storageRootKey.fingerprint.prefix(16))…: the keychain was moved to "
                    + "another machine, or this TPM was cleared; \(recoveryAdvice)")
        }
        return tpm
    }

    static func unsealDeviceKey(_ sealed: TPMDeviceKeyFile, with tpm: any TPMDevice) throws(KeystoreError) -> DeviceKey {
        do {
            return try DeviceKey.fromBytes(try tpm.unseal(sealed.sealedDeviceKey, pcrs: sealed.pcrs))
        } catch let error as TPMError where error.isPolicyFailure {
            throw .tpmUnavailable(
                reason: "this keychain's device key is sealed to PCRs \(sealed.pcrs), which no longer hold the values they had "
                    + "(firmware, bootloader, kernel or Secure Boot changed); \(recoveryAdvice), which seals it to their new values")
        } catch let error as TPMError {
            throw .tpmUnavailable(reason: "\(error.reason); \(recoveryAdvice)")
        } catch {
            throw .deviceKeyDamaged(reason: "the TPM unsealed something that is not a device key")
        }
    }

    /// Both files exist: a move to or from the TPM stopped half-way. The keybag, written between the two files'
    /// changes, says which is current; the other is removed.
    private static func finishInterruptedMove(
        folder: KeychainFolder, sealed: TPMDeviceKeyFile, file: DeviceKey, selection: TPMSelection
    ) throws(KeystoreError) -> (DeviceKey, DeviceKeyBinding) {
        let keybag = try KeybagFile.load(from: folder.keybagURL, deviceKey: file)
        guard keybag?.boundToTPM == true else {
            try? FileManager.default.removeItem(at: folder.tpmDeviceKeyURL)
            return (file, .file)
        }
        try? FileManager.default.removeItem(at: folder.deviceKeyURL)
        let tpm = try unsealingTPM(for: sealed, selection: selection)
        return (try unsealDeviceKey(sealed, with: tpm), .tpm(tpm, sealed))
    }

    /// A new keychain's device key: sealed by the TPM when one is selected, else a file. The recovery key made
    /// with it is sealed too until a person asks to see it.
    private static func createDeviceKey(folder: KeychainFolder, selection: TPMSelection) throws(KeystoreError) -> (DeviceKey, DeviceKeyBinding) {
        guard let tcti = selection.configuration else { return (try DeviceKey.create(at: folder.deviceKeyURL), .file) }
        let deviceKey = DeviceKey.generate()
        let recoveryKey = RecoveryKey.generate()
        let tpm: any TPMDevice
        let sealed: TPMDeviceKeyFile
        do {
            tpm = try TPMSelection.open(tcti)
            sealed = TPMDeviceKeyFile(
                storageRootKey: tpm.storageRootKey, sealedDeviceKey: try tpm.seal(deviceKey.bytes),
                passcodeHMACKey: try tpm.createHMACKey(), escrow: Data(), pendingRecoveryKey: try tpm.seal(recoveryKey.key),
                route: .init(of: tpm))
        } catch {
            guard selection.isDefault else {
                throw .tpmUnavailable(reason: "a new keychain cannot be bound to the TPM COFFER_TPM names: \(error.reason)")
            }
            DiagnosticsLevel.logger(label: "coffer.keystore").notice("the new keychain's device key is a file: \(error.reason)")
            return (try DeviceKey.create(at: folder.deviceKeyURL), .file)
        }
        var complete = sealed
        complete.escrow = try DeviceKeyEscrow.seal(deviceKey, recoveryKey: recoveryKey)
        try complete.write(to: folder.tpmDeviceKeyURL)
        return (deviceKey, .tpm(tpm, complete))
    }
}
