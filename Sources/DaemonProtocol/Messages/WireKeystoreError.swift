import KeychainModel

/// `Keystore.KeystoreError` as it crosses the socket, case for case and field for field, so the client
/// rebuilds exactly the error the daemon's keystore threw.
///
/// The protocol does not depend on `Keystore` (which links the crypto backends); the daemon and the client,
/// which do, convert with a switch that maps each case to the one of the same name. The Apple status of each
/// case stays defined once, in `KeystoreError.status`.
public enum WireKeystoreError: Sendable, Hashable {
    /// `KeystoreError.classUnavailable`.
    case classUnavailable(ProtectionClass)
    /// `KeystoreError.classMissing`.
    case classMissing(ProtectionClass)
    /// `KeystoreError.wrongPasscode`.
    case wrongPasscode(failedAttempts: Int, retryAfter: Duration)
    /// `KeystoreError.throttled`.
    case throttled(retryAfter: Duration)
    /// `KeystoreError.passcodeTooShort`.
    case passcodeTooShort(minimum: Int)
    /// `KeystoreError.noPasscodeSet`.
    case noPasscodeSet
    /// `KeystoreError.passcodeAlreadySet`.
    case passcodeAlreadySet
    /// `KeystoreError.keybagDamaged`.
    case keybagDamaged(reason: String)
    /// `KeystoreError.deviceKeyDamaged`.
    case deviceKeyDamaged(reason: String)
    /// `KeystoreError.wrappedKeyCorrupt`.
    case wrappedKeyCorrupt
    /// `KeystoreError.erasedAfterFailedAttempts`.
    case erasedAfterFailedAttempts
    /// `KeystoreError.io`.
    case io(reason: String)
}

/// `Keystore.LockState` on the wire; the raw values are `LockState`'s, so `LockState(rawValue: wire.rawValue)`
/// converts.
public enum WireLockState: String, Sendable, Hashable, CaseIterable {
    /// `LockState.beforeFirstUnlock`.
    case beforeFirstUnlock = "before-first-unlock"
    /// `LockState.unlocked`.
    case unlocked
    /// `LockState.locked`.
    case locked
}

/// `Keystore.KeystoreStatus` on the wire, field for field.
public struct WireKeystoreStatus: Sendable, Hashable {
    /// Whether a passcode is set.
    public var passcodeSet: Bool
    /// The daemon keystore's lock state.
    public var lockState: WireLockState
    /// Consecutive wrong passcodes.
    public var failedAttempts: Int
    /// How long until the next unlock attempt is accepted.
    public var retryAfter: Duration
    /// Whether the class keys are erased after ten consecutive wrong passcodes.
    public var eraseAfterFailedAttempts: Bool

    /// A status snapshot.
    public init(
        passcodeSet: Bool, lockState: WireLockState, failedAttempts: Int, retryAfter: Duration,
        eraseAfterFailedAttempts: Bool
    ) {
        self.passcodeSet = passcodeSet
        self.lockState = lockState
        self.failedAttempts = failedAttempts
        self.retryAfter = retryAfter
        self.eraseAfterFailedAttempts = eraseAfterFailedAttempts
    }
}
