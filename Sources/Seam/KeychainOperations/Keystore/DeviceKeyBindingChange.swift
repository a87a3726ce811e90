import KeychainModel

/// A change to what protects the keychain's device key (``Request/deviceKeyBinding(_:)``). Each needs the passcode
/// when one is set; a wrong one is charged as an unlock attempt is.
public enum DeviceKeyBindingChange: Sendable, Equatable {
    /// Seals the device key by the selected TPM and tangles the passcode with it: answered with the new recovery key.
    case bindTPM(passcode: SecretBytes?)
    /// Moves the device key back into a file and untangles the passcode.
    case unbindTPM(passcode: SecretBytes?)
    /// The recovery key: the one made with the keychain, shown once, or a new one (`renew`) replacing it.
    case recoveryKey(renew: Bool, passcode: SecretBytes?)
    /// Opens a keychain its TPM no longer opens with the recovery key (printed form) and the passcode, and binds it
    /// again to the TPM there is, or to a file.
    case recover(recoveryKey: SecretBytes, passcode: SecretBytes?)

}
