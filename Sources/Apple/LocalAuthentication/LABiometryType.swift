/// The kind of biometry an ``LAContext`` can use, with Apple's raw values.
///
/// On Linux biometry is a fingerprint reader driven by fprintd, so ``LAContext/biometryType`` is
/// ``touchID`` whenever fprintd reports a reader (enrolled fingers or not), and ``none`` when there is no
/// reader or no fprintd. ``faceID`` and ``opticID`` are never reported.
public enum LABiometryType: Int, Sendable, Hashable {
    /// No biometry.
    case none = 0
    /// A fingerprint reader (Touch ID on Apple's devices; fprintd on Linux).
    case touchID = 1
    /// Face ID. Never reported on Linux.
    case faceID = 2
    /// Optic ID. Never reported on Linux.
    case opticID = 4
}
