/// A file data-protection class (Apple's `NSFileProtection…`): when a protected file's key can be unwrapped.
///
/// The raw values are Apple's class numbers (xnu's `content_protection.h`: A = 1 … D = 4). Each class is
/// served by a class key of the keychain's keybag: A and C share the keys of the `ak` and `ck` item classes
/// (with their own derived wrapping key), D the `dk` key, and B has a Curve25519 key pair of its own whose
/// private half is available exactly when `ak`'s key is.
public enum FileProtectionClass: UInt8, Sendable, Hashable, CaseIterable, Codable {
    /// Class A, `NSFileProtectionComplete`: readable and writable only while the keychain is unlocked.
    case complete = 1
    /// Class B, `NSFileProtectionCompleteUnlessOpen`: can be created while locked (with the class's public
    /// key); read only while unlocked, except through a handle opened before the lock.
    case completeUnlessOpen = 2
    /// Class C, `NSFileProtectionCompleteUntilFirstUserAuthentication`: usable from the first unlock on.
    case completeUntilFirstUserAuthentication = 3
    /// Class D, `NSFileProtectionNone`: always usable (protected by the device key only).
    case none = 4

    /// The item class whose class key serves this file class (for B: the class that protects its private key).
    public var keychainClass: ProtectionClass {
        switch self {
        case .complete, .completeUnlessOpen: .whenUnlocked
        case .completeUntilFirstUserAuthentication: .afterFirstUnlock
        case .none: .always
        }
    }

    /// Apple's name of the class, as `FileProtectionType`'s raw value spells it.
    public var appleName: String {
        switch self {
        case .complete: "NSFileProtectionComplete"
        case .completeUnlessOpen: "NSFileProtectionCompleteUnlessOpen"
        case .completeUntilFirstUserAuthentication: "NSFileProtectionCompleteUntilFirstUserAuthentication"
        case .none: "NSFileProtectionNone"
        }
    }
}
