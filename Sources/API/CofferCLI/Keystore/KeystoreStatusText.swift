import Foundation
import KeychainModel

/// `coffer keystore status`'s lines and JSON for what protects the device key.
struct KeystoreStatusText {
    let text: String
    let json: [String: Any]

    init(_ protection: DeviceKeyProtection) {
        switch protection {
        case .file(let whyNoTPM):
            text = """
                device key: file (copying the keychain's folder lets passcode guesses run on other machines)
                TPM: \(whyNoTPM.map { "not usable: \($0)" } ?? "available: coffer keystore bind-tpm seals the device key by it")
                """
            json = ["deviceKey": "file", "tpmAvailable": whyNoTPM == nil, "whyNoTPM": whyNoTPM ?? NSNull()]
        case .tpm(let binding):
            text = """
                device key: sealed by the TPM
                TPM: \(binding.tcti)
                storage root key: \(binding.storageRootKeyFingerprint)
                PCRs: \(binding.pcrs.isEmpty ? "none (bound to the chip, not to the boot state)" : "sha256:" + binding.pcrs.map(String.init).joined(separator: ",") + " (a boot change needs the recovery key)")
                recovery key: \(binding.recoveryKeyPending ? "not shown yet: run coffer keystore recovery-key and keep it safe" : "shown")
                file fallback: none (without this TPM, only the recovery key and the passcode open the keychain)
                """
            json = [
                "deviceKey": "tpm", "tcti": binding.tcti, "storageRootKeyFingerprint": binding.storageRootKeyFingerprint,
                "pcrs": binding.pcrs, "recoveryKeyPending": binding.recoveryKeyPending,
            ]
        }
    }
}
