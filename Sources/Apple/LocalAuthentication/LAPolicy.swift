/// The authentication policies an ``LAContext`` evaluates, with Apple's raw values.
///
/// On Linux the person proves presence with the keychain passcode (the device passcode's stand-in) or a
/// finger through fprintd. Linux has no companion device (no Apple Watch, no paired Mac), so the companion
/// policies fail with ``LAError/Code/companionNotAvailable`` unless biometry can stand in for them.
public enum LAPolicy: Int, Sendable, Hashable {
    /// Biometry only: a finger enrolled with fprintd.
    case deviceOwnerAuthenticationWithBiometrics = 1
    /// Biometry or the passcode: a finger when one is enrolled, else (or when it does not match) the
    /// keychain passcode.
    case deviceOwnerAuthentication = 2
    /// A paired companion device. Never available on Linux.
    case deviceOwnerAuthenticationWithCompanion = 3
    /// Biometry or a paired companion device; on Linux, biometry.
    case deviceOwnerAuthenticationWithBiometricsOrCompanion = 4
    /// A paired watch that is on the wrist. Never available on Linux.
    case deviceOwnerAuthenticationWithWristDetection = 5

    /// The former name of ``deviceOwnerAuthenticationWithCompanion``.
    @available(*, deprecated, renamed: "deviceOwnerAuthenticationWithCompanion")
    public static let deviceOwnerAuthenticationWithWatch = LAPolicy.deviceOwnerAuthenticationWithCompanion
    /// The former name of ``deviceOwnerAuthenticationWithBiometricsOrCompanion``.
    @available(*, deprecated, renamed: "deviceOwnerAuthenticationWithBiometricsOrCompanion")
    public static let deviceOwnerAuthenticationWithBiometricsOrWatch = LAPolicy.deviceOwnerAuthenticationWithBiometricsOrCompanion
}
