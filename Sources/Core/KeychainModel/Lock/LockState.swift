/// The keychain's lock state, as on iOS.
///
/// A keychain without a passcode is always ``unlocked``. With a passcode, a new process (or daemon
/// start) begins ``beforeFirstUnlock``, as a rebooted phone does; unlocking moves it to ``unlocked``,
/// and locking to ``locked``.
public enum LockState: String, Sendable, Hashable, Codable, CaseIterable {
    /// A passcode is set and has not been entered since this process started: only D-class keys are usable.
    case beforeFirstUnlock = "before-first-unlock"
    /// All class keys are usable.
    case unlocked
    /// The passcode was entered since start, but the keychain is locked again: C- and D-class keys are usable.
    case locked
}
