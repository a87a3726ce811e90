import KeychainModel

/// A change to what protects the keychain's device key (``Request/deviceKeyBinding(_:)``). Each needs the passcode
/// when one is set; a wrong one is charged as an unlock attempt is.
public enum DeviceKeyBindingChange: Sendable, Equatable {
    /// Seals the device key by the selected TPM and tangles the passcode with it: answered with the new recovery key.
    /// `pcrs` (PCR numbers of the SHA-256 bank, 0 to 23) binds it to those PCRs' present values too; for a keychain
    /// already bound, it seals the device key again to the PCRs given (empty: none) and is answered with success.
    case bindTPM(passcode: SecretBytes?, pcrs: [Int]? = nil)
    /// Moves the device key back into a file and untangles the passcode.
    case unbindTPM(passcode: SecretBytes?)
    /// The recovery key: the one made with the keychain, shown once, or a new one (`renew`) replacing it.
    case recoveryKey(renew: Bool, passcode: SecretBytes?)
    /// Opens a keychain its TPM no longer opens with the recovery key (printed form) and the passcode, and binds it
    /// again to the TPM there is, or to a file.
    case recover(recoveryKey: SecretBytes, passcode: SecretBytes?)

}
