/// The passcode rules every front end states and the keystore enforces.
public enum PasscodePolicy {
    /// The minimum passcode length, in Unicode scalars.
    public static let minimumLength = 4
    /// Consecutive wrong passcodes after which the class keys are erased, when the owner opted in.
    public static let eraseThreshold = 10
}
