import Foundation

extension LAError {
    /// LocalAuthentication's error codes, with Apple's raw values.
    public enum Code: Int, Sendable, Hashable {
        /// The person did not prove who they are: three wrong passcodes at one prompt, or no finger matched.
        case authenticationFailed = -1
        /// The person cancelled the prompt.
        case userCancel = -2
        /// The person chose the fallback (Coffer's prompts have none).
        case userFallback = -3
        /// The system cancelled: nobody answered in time, or the call was cancelled by the keychain.
        case systemCancel = -4
        /// The policy needs a passcode and the keychain has none (`coffer passcode set`).
        case passcodeNotSet = -5
        /// No biometry: no fingerprint reader, or no fprintd.
        case biometryNotAvailable = -6
        /// A fingerprint reader, but no enrolled fingers (`fprintd-enroll`).
        case biometryNotEnrolled = -7
        /// Too many failed biometric attempts.
        case biometryLockout = -8
        /// The app cancelled: ``LAContext/invalidate()`` during an evaluation, or its task was cancelled.
        case appCancel = -9
        /// The context was invalidated before the call.
        case invalidContext = -10
        /// No paired companion device; always so on Linux.
        case companionNotAvailable = -11
        /// Biometry through a removable accessory, and none is paired.
        case biometryNotPaired = -12
        /// Biometry through a removable accessory, and it is not connected.
        case biometryDisconnected = -13
        /// The dimensions of embedded UI are invalid.
        case invalidDimensions = -14
        /// The call may not prompt (``LAContext/interactionNotAllowed``), or nobody can be asked: no prompt
        /// agent, no terminal, no pinentry.
        case notInteractive = -1004

        /// The former name of ``biometryNotAvailable``.
        @available(*, deprecated, renamed: "biometryNotAvailable")
        public static let touchIDNotAvailable = Code.biometryNotAvailable
        /// The former name of ``biometryNotEnrolled``.
        @available(*, deprecated, renamed: "biometryNotEnrolled")
        public static let touchIDNotEnrolled = Code.biometryNotEnrolled
        /// The former name of ``biometryLockout``.
        @available(*, deprecated, renamed: "biometryLockout")
        public static let touchIDLockout = Code.biometryLockout
        /// The former name of ``companionNotAvailable``.
        @available(*, deprecated, renamed: "companionNotAvailable")
        public static let watchNotAvailable = Code.companionNotAvailable

        /// Matches an error of this code, so that `catch LAError.userCancel` and
        /// `if case LAError.userCancel = error` work: an ``LAError``, or an `NSError` of ``LAErrorDomain``.
        public static func ~= (match: Code, error: any Error) -> Bool {
            if let error = error as? LAError { return error.code == match }
            let bridged = error as NSError
            return bridged.domain == LAErrorDomain && bridged.code == match.rawValue
        }
    }

    /// ``Code/authenticationFailed``.
    public static var authenticationFailed: Code { .authenticationFailed }
    /// ``Code/userCancel``.
    public static var userCancel: Code { .userCancel }
    /// ``Code/userFallback``.
    public static var userFallback: Code { .userFallback }
    /// ``Code/systemCancel``.
    public static var systemCancel: Code { .systemCancel }
    /// ``Code/passcodeNotSet``.
    public static var passcodeNotSet: Code { .passcodeNotSet }
    /// ``Code/biometryNotAvailable``.
    public static var biometryNotAvailable: Code { .biometryNotAvailable }
    /// ``Code/biometryNotEnrolled``.
    public static var biometryNotEnrolled: Code { .biometryNotEnrolled }
    /// ``Code/biometryLockout``.
    public static var biometryLockout: Code { .biometryLockout }
    /// ``Code/appCancel``.
    public static var appCancel: Code { .appCancel }
    /// ``Code/invalidContext``.
    public static var invalidContext: Code { .invalidContext }
    /// ``Code/companionNotAvailable``.
    public static var companionNotAvailable: Code { .companionNotAvailable }
    /// ``Code/biometryNotPaired``.
    public static var biometryNotPaired: Code { .biometryNotPaired }
    /// ``Code/biometryDisconnected``.
    public static var biometryDisconnected: Code { .biometryDisconnected }
    /// ``Code/invalidDimensions``.
    public static var invalidDimensions: Code { .invalidDimensions }
    /// ``Code/notInteractive``.
    public static var notInteractive: Code { .notInteractive }
    /// The former name of ``Code/biometryNotAvailable``.
    @available(*, deprecated, renamed: "biometryNotAvailable")
    public static var touchIDNotAvailable: Code { .biometryNotAvailable }
    /// The former name of ``Code/biometryNotEnrolled``.
    @available(*, deprecated, renamed: "biometryNotEnrolled")
    public static var touchIDNotEnrolled: Code { .biometryNotEnrolled }
    /// The former name of ``Code/biometryLockout``.
    @available(*, deprecated, renamed: "biometryLockout")
    public static var touchIDLockout: Code { .biometryLockout }
    /// The former name of ``Code/companionNotAvailable``.
    @available(*, deprecated, renamed: "companionNotAvailable")
    public static var watchNotAvailable: Code { .companionNotAvailable }
}
