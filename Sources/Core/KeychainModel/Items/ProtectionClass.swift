/// A data-protection class: when the key that protects an item can be used.
///
/// The raw values are Apple's `kSecAttrAccessible…` string values (`pdmn`), and
/// ``keyclassNumber`` is the AppleKeyStore class number that Apple's item format records.
public enum ProtectionClass: String, Sendable, Hashable, CaseIterable, Codable {
    /// `kSecAttrAccessibleWhenUnlocked`: usable while the keychain is unlocked.
    case whenUnlocked = "ak"
    /// `kSecAttrAccessibleAfterFirstUnlock`: usable from the first unlock until the process (or daemon) ends.
    case afterFirstUnlock = "ck"
    /// `kSecAttrAccessibleAlways` (deprecated by Apple): always usable.
    case always = "dk"
    /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`.
    case whenUnlockedThisDeviceOnly = "aku"
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`.
    case afterFirstUnlockThisDeviceOnly = "cku"
    /// `kSecAttrAccessibleAlwaysThisDeviceOnly` (deprecated by Apple).
    case alwaysThisDeviceOnly = "dku"
    /// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`: usable while unlocked, and only while a passcode is set.
    case whenPasscodeSetThisDeviceOnly = "akpu"

    /// How the class behaves when the keychain locks.
    public enum Availability: Sendable {
        /// Usable only while unlocked (A classes).
        case whenUnlocked
        /// Usable from the first unlock until the process ends (C classes).
        case afterFirstUnlock
        /// Always usable (D classes).
        case always
    }

    /// When this class's key can be used.
    public var availability: Availability {
        switch self {
        case .whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly: .whenUnlocked
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly: .afterFirstUnlock
        case .always, .alwaysThisDeviceOnly: .always
        }
    }

    /// Whether items of this class may leave the machine (backup or sync); `…ThisDeviceOnly` classes may not.
    public var isMigratory: Bool {
        switch self {
        case .whenUnlocked, .afterFirstUnlock, .always: true
        default: false
        }
    }

    /// The AppleKeyStore class number (6 for `ak` … 12 for `akpu`).
    public var keyclassNumber: Int {
        switch self {
        case .whenUnlocked: 6
        case .afterFirstUnlock: 7
        case .always: 8
        case .whenUnlockedThisDeviceOnly: 9
        case .afterFirstUnlockThisDeviceOnly: 10
        case .alwaysThisDeviceOnly: 11
        case .whenPasscodeSetThisDeviceOnly: 12
        }
    }

    /// The class with the given AppleKeyStore class number, if any.
    public init?(keyclassNumber: Int) {
        guard let match = Self.allCases.first(where: { $0.keyclassNumber == keyclassNumber }) else { return nil }
        self = match
    }
}
