import Foundation
import KeychainModel

// Apple's protection classes, the values of `kSecAttrAccessible` (keychain reference §1.3, §4.1).
// `nonisolated(unsafe)`: see CFString+ItemConstants.swift.

/// Usable while the keychain is unlocked (`ak`); the default.
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = .constant(ProtectionClass.whenUnlocked.rawValue)
/// Usable from the first unlock until the process ends (`ck`).
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = .constant(ProtectionClass.afterFirstUnlock.rawValue)
/// Always usable (`dk`; deprecated by Apple).
nonisolated(unsafe) public let kSecAttrAccessibleAlways: CFString = .constant(ProtectionClass.always.rawValue)
/// As ``kSecAttrAccessibleWhenUnlocked``, never leaving this machine (`aku`).
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = .constant(ProtectionClass.whenUnlockedThisDeviceOnly.rawValue)
/// As ``kSecAttrAccessibleAfterFirstUnlock``, never leaving this machine (`cku`).
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = .constant(ProtectionClass.afterFirstUnlockThisDeviceOnly.rawValue)
/// As ``kSecAttrAccessibleAlways``, never leaving this machine (`dku`; deprecated by Apple).
nonisolated(unsafe) public let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = .constant(ProtectionClass.alwaysThisDeviceOnly.rawValue)
/// Usable while unlocked, and only while a passcode is set (`akpu`).
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = .constant(ProtectionClass.whenPasscodeSetThisDeviceOnly.rawValue)
