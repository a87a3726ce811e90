import Crypto
import Foundation
import KeychainModel

/// The working keys derived from one unwrapped class key: one wraps item keys, one seals attributes, one
/// wraps the keys of protected files.
///
/// The class key itself is not kept: the keystore unwraps it again from the keybag when it must be
/// re-wrapped (passcode set, change, remove). Both working keys are held locked in memory (``LockedKey``).
struct ClassKeyMaterial: Sendable {
    private let lockedItemKeyWrapping: LockedKey
    private let lockedMetadata: LockedKey
    private let lockedFileKeyWrapping: LockedKey

    /// The key that wraps item keys of the class.
    var itemKeyWrapping: SymmetricKey { lockedItemKeyWrapping.key }
    /// The key that seals item attributes of the class.
    var metadata: SymmetricKey { lockedMetadata.key }
    /// The key that wraps the keys of protected files of the class (and, for `ak`, file class B's private key).
    var fileKeyWrapping: SymmetricKey { lockedFileKeyWrapping.key }

    init(classKey: SymmetricKey, protection: ProtectionClass) {
        lockedItemKeyWrapping = LockedKey(
            HKDF<SHA256>.deriveKey(
                inputKeyMaterial: classKey, info: Data("coffer item-key wrapping v1 \(protection.rawValue)".utf8),
                outputByteCount: 32))
        lockedMetadata = LockedKey(
            HKDF<SHA256>.deriveKey(
                inputKeyMaterial: classKey, info: Data("coffer metadata v1 \(protection.rawValue)".utf8),
                outputByteCount: 32))
        lockedFileKeyWrapping = LockedKey(
            HKDF<SHA256>.deriveKey(
                inputKeyMaterial: classKey, info: Data("coffer file-key wrapping v1 \(protection.rawValue)".utf8),
                outputByteCount: 32))
    }

    /// Whether every working key is locked in memory.
    var isLockedInMemory: Bool {
        lockedItemKeyWrapping.isLockedInMemory && lockedMetadata.isLockedInMemory && lockedFileKeyWrapping.isLockedInMemory
    }
}
