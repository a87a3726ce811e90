/// Why an authentication did not succeed, with LocalAuthentication's `LAError.Code` values.
///
/// The keychain answers an ``AuthenticationFailure`` to an authentication request; an item call that
/// needed the authentication answers the Apple status ``status`` gives instead (§6.4: cancel → -128,
/// not interactive → -25308, anything else → -25293).
public struct AuthenticationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// LocalAuthentication's error codes.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// `LAError.authenticationFailed`: the person did not prove who they are (wrong passcodes, no match).
        case authenticationFailed = -1
        /// `LAError.userCancel`: the person cancelled.
        case userCancel = -2
        /// `LAError.userFallback`: the person chose the fallback.
        case userFallback = -3
        /// `LAError.systemCancel`: the system cancelled (the prompt went away, a time-out).
        case systemCancel = -4
        /// `LAError.passcodeNotSet`: the policy needs a passcode and the keychain has none.
        case passcodeNotSet = -5
        /// `LAError.biometryNotAvailable`: no biometry on this machine (no fprintd, no reader).
        case biometryNotAvailable = -6
        /// `LAError.biometryNotEnrolled`: a reader, but no enrolled fingers.
        case biometryNotEnrolled = -7
        /// `LAError.biometryLockout`: too many failed biometric attempts.
        case biometryLockout = -8
        /// `LAError.appCancel`: the app invalidated the context.
        case appCancel = -9
        /// `LAError.invalidContext`: the context was invalidated before.
        case invalidContext = -10
        /// `LAError.companionNotAvailable`: no paired companion device (a watch); always so on Linux.
        case companionNotAvailable = -11
        /// `LAError.invalidDimensions`.
        case invalidDimensions = -14
        /// `LAError.notInteractive`: the call may not show a prompt, or nobody can be asked.
        case notInteractive = -1004
    }

    /// What went wrong, as LocalAuthentication names it.
    public let code: Code
    /// Why, for people: never a passcode or a password.
    public let reason: String

    /// A failure with its reason.
    public init(_ code: Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The Apple status an item call answers when the authentication it needed failed so (§6.4).
    public var status: KeychainStatus {
        switch code {
        case .userCancel, .appCancel, .systemCancel: .userCanceled
        case .notInteractive: .interactionNotAllowed
        default: .authFailed
        }
    }

    /// The code's name and the reason.
    public var description: String { "LAError \(code.rawValue): \(reason)" }
}
