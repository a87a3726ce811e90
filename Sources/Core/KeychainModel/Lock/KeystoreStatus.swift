/// A snapshot of the keystore for people and tools: what `coffer status` prints.
public struct KeystoreStatus: Sendable, Hashable, Codable {
    /// Whether a passcode is set.
    public var passcodeSet: Bool
    /// The lock state of this keystore instance.
    public var lockState: LockState
    /// Consecutive wrong passcodes, as recorded in the keybag.
    public var failedAttempts: Int
    /// How long until the next unlock attempt is accepted (zero when no delay applies).
    public var retryAfter: Duration
    /// Whether the class keys are erased after ten consecutive wrong passcodes.
    public var eraseAfterFailedAttempts: Bool
    /// What protects the device key: a file or a TPM.
    public var deviceKey: DeviceKeyProtection

    /// Creates a status snapshot.
    public init(
        passcodeSet: Bool, lockState: LockState, failedAttempts: Int, retryAfter: Duration, eraseAfterFailedAttempts: Bool,
        deviceKey: DeviceKeyProtection = .file(whyNoTPM: nil)
    ) {
        self.deviceKey = deviceKey
        self.passcodeSet = passcodeSet
        self.lockState = lockState
        self.failedAttempts = failedAttempts
        self.retryAfter = retryAfter
        self.eraseAfterFailedAttempts = eraseAfterFailedAttempts
    }
}
