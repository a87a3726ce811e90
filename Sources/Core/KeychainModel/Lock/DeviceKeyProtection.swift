/// What protects a keychain's device key, the root of its keys: a file, or a TPM.
public enum DeviceKeyProtection: Sendable, Hashable, Codable {
    /// The device key is a file (0600) in the keychain's folder: whoever copies the folder may guess the passcode
    /// elsewhere. `whyNoTPM` says why no TPM protects it (none selected, none found, tpm2-tss missing), or is nil
    /// when a TPM is there and `coffer keystore bind-tpm` would use it.
    case file(whyNoTPM: String?)
    /// The device key is sealed by a TPM and the passcode is tangled with a key inside it.
    case tpm(TPMBinding)

    /// `whyNoTPM` when no TPM is selected at all.
    public static let noTPMSelected =
        "no TPM is selected (COFFER_TPM is none, or /dev/tpmrm0 is missing or not usable by this process)"

    /// A keychain's binding to its TPM, for people.
    public struct TPMBinding: Sendable, Hashable, Codable {
        /// The TCTI the TPM is reached through (`device:/dev/tpmrm0`, `swtpm:…`).
        public var tcti: String
        /// SHA-256 of the storage root key's public point, in hexadecimal.
        public var storageRootKeyFingerprint: String
        /// The PCRs the device key is sealed to; empty: bound to the chip, not to the boot state.
        public var pcrs: [Int]
        /// Whether the recovery key made at enrolment is still waiting to be shown (`coffer keystore recovery-key`).
        public var recoveryKeyPending: Bool

        /// A binding's description.
        public init(tcti: String, storageRootKeyFingerprint: String, pcrs: [Int] = [], recoveryKeyPending: Bool) {
            self.tcti = tcti
            self.storageRootKeyFingerprint = storageRootKeyFingerprint
            self.pcrs = pcrs
            self.recoveryKeyPending = recoveryKeyPending
        }
    }
}
