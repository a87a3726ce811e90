import Foundation

/// The keybag's contents: the wrapped class keys, the wrapped index key, file class B's key pair, the
/// passcode's KDF record, and the failed-attempt counter. Holds no unwrapped key.
///
/// Versions: 1 had no file class B key pair; 2 adds ``fileClassB``. A version 1 keybag is upgraded the
/// first time the `ak` class key is in memory (at open without a passcode, else at the next unlock),
/// since the pair's private half is wrapped under a key derived from it.
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
        /// True when the stretched passcode goes through the TPM's HMAC key before it salts the device key
        /// (absent, false, in keybags of keychains not bound to a TPM).
        var tangledWithTPM: Bool?
    }

    /// File class B's Curve25519 (X25519) key pair: the public half in the clear (the keybag's MAC covers
    /// it), the private half wrapped under a key derived from the `ak` class key, so it is usable exactly
    /// when class A is.
    struct FileClassBKeyPair: Sendable, Codable, Equatable {
        /// The 32-byte X25519 public key.
        var publicKey: Data
        /// The 32-byte private key under RFC 3394 AES key wrap.
        var wrappedPrivateKey: Data
    }

    /// The version this code writes.
    static let currentContentVersion = 2

    /// Format of this structure (see the type's documentation).
    var contentVersion = Keybag.currentContentVersion
    /// Wrapped class keys by `pdmn` value; `akpu` only while a passcode is set.
    var classKeys: [String: WrappedClassKey]
    /// The blind-index key, wrapped under a device-derived key.
    var wrappedIndexKey: Data
    /// File class B's key pair; nil in a version 1 keybag not yet upgraded.
    var fileClassB: FileClassBKeyPair?
    /// Set while a passcode is set.
    var passcode: PasscodeRecord?
    /// Consecutive wrong passcodes (an attempt is counted before its KDF runs).
    var failedAttempts = 0
    /// When the last attempt was counted, in seconds since 1970.
    var lastAttemptTime: Double?
    /// Whether the class keys are erased after ``ThrottlePolicy/eraseThreshold`` failures.
    var eraseAfterFailedAttempts = false
    /// True in the fresh keybag that replaced one after too many wrong passcodes, until a passcode is set
    /// again (absent in keybags written before it existed, and in every other keybag).
    var erasedAfterFailedAttempts: Bool?
    /// True while the device key is sealed by a TPM (`device-key.tpm`) rather than kept in `device.key`; when an
    /// interrupted move left both files, this says which is current.
    var boundToTPM: Bool?
    /// In a keychain bound to a TPM, the passcode-protected class keys again, wrapped under a key derived from the
    /// device key and the stretched passcode without the TPM: what the recovery key and the passcode open when the
    /// TPM is gone. Without the recovery key the device key, and so these, stay out of reach.
    var recoveryClassKeys: [String: Data]?
}
