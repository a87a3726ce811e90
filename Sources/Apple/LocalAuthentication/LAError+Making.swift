import Foundation
import KeychainModel

extension LAError {
    /// An error with Apple's short sentence for `code` and, for diagnosis, `reason` (`NSDebugDescription`).
    init(_ code: Code, reason: String) {
        self.init(code, userInfo: [NSLocalizedDescriptionKey: code.sentence, NSDebugDescriptionErrorKey: reason])
    }

    /// The keychain's answer to an authentication, with the same code (the raw values are Apple's on both sides).
    init(_ failure: AuthenticationFailure) {
        self.init(Code(rawValue: failure.code.rawValue) ?? .authenticationFailed, reason: failure.reason)
    }
}

extension LAError.Code {
    /// A short sentence for people, like the one Apple's framework puts in `NSLocalizedDescription`.
    var sentence: String {
        switch self {
        case .authenticationFailed: "Authentication failed."
        case .userCancel: "Canceled by user."
        case .userFallback: "Fallback authentication mechanism selected."
        case .systemCancel: "Canceled by the system."
        case .passcodeNotSet: "Passcode not set."
        case .biometryNotAvailable: "Biometry is not available on this device."
        case .biometryNotEnrolled: "No identities are enrolled."
        case .biometryLockout: "Biometry is locked out."
        case .appCancel: "Canceled by the application."
        case .invalidContext: "The context has been invalidated."
        case .companionNotAvailable: "No companion device is available."
        case .biometryNotPaired: "No biometric accessory is paired."
        case .biometryDisconnected: "The biometric accessory is not connected."
        case .invalidDimensions: "The dimensions of the embedded UI are invalid."
        case .notInteractive: "User interaction is required."
        }
    }
}
