import Foundation

/// The keybag's contents: the wrapped class keys, the wrapped index key, the passcode's KDF
/// record, and the failed-attempt counter. Holds no unwrapped key.
struct Keybag: Sendable, Codable, Equatable {
    /// Which key protects a wrapped class key.
    enum Protector: String, Sendable, Codable {
        /// A key derived from the device key.
        case device
        /// The passcode key.
        case passcode
    }

    /// A class key wrapped with RFC 3394 AES key wrap.
    struct WrappedClassKey: Sendable, Codable, Equatable {
        var protector: Protector
        var wrapped: Data
    }

    /// What is needed to derive the passcode key again.
    struct PasscodeRecord: Sendable, Codable, Equatable {
        var salt: Data
        var kdf: PasscodeKDF
    }

    /// Format of this structure.
    var contentVersion = 1
    /// Wrapped class keys by `pdmn` value; `akpu` only while a passcode is set.
    var classKeys: [String: WrappedClassKey]
    /// The blind-index key, wrapped under a device-derived key.
    var wrappedIndexKey: Data
    /// Set while a passcode is set.
    var passcode: PasscodeRecord?
    /// Consecutive wrong passcodes (an attempt is counted before its KDF runs).
    var failedAttempts = 0
    /// When the last attempt was counted, in seconds since 1970.
    var lastAttemptTime: Double?
    /// Whether the class keys are erased after ``ThrottlePolicy/eraseThreshold`` failures.
    var eraseAfterFailedAttempts = false
}
