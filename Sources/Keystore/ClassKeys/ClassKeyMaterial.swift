import Crypto
import Foundation
import KeychainModel

/// The working keys derived from one unwrapped class key: one wraps item keys, one seals attributes.
///
/// The class key itself is not kept: the keystore unwraps it again from the keybag when it must be
/// re-wrapped (passcode set, change, remove).
struct ClassKeyMaterial: Sendable {
    let itemKeyWrapping: SymmetricKey
    let metadata: SymmetricKey

    init(classKey: SymmetricKey, protection: ProtectionClass) {
        itemKeyWrapping = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: classKey, info: Data("coffer item-key wrapping v1 \(protection.rawValue)".utf8),
            outputByteCount: 32)
        metadata = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: classKey, info: Data("coffer metadata v1 \(protection.rawValue)".utf8),
            outputByteCount: 32)
    }
}
