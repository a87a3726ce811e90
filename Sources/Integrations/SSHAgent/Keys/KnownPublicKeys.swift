import Foundation
import KeyCrypto
import Synchronization

/// Public keys the agent has read from the keychain, by application label, so that listing the keys searches the
/// public key items only when a private key's public half is not known yet.
///
/// A key's application label is the SHA-1 of its public key, as Apple's keychain makes it, so a label names one public
/// key for good: a key is kept only under its own label, and a kept key can never be the wrong one for an item with
/// that label. Which keys the agent has is still read from the keychain at every request (the private key items). At
/// most ``capacity`` keys are kept; when full, the table starts over.
final class KnownPublicKeys: Sendable {
    /// The most keys kept.
    static let capacity = 256

    private let keys = Mutex<[Data: AsymmetricKey]>([:])

    /// The public key whose application label is `label`, if it was read before.
    func key(label: Data) -> AsymmetricKey? {
        keys.withLock { $0[label] }
    }

    /// Keeps `key` under `label` when `label` is its application label; returns whether it did.
    @discardableResult
    func keep(_ key: AsymmetricKey, label: Data) -> Bool {
        guard key.applicationLabel == label else { return false }
        keys.withLock { keys in
            if keys.count >= Self.capacity { keys.removeAll() }
            keys[label] = key
        }
        return true
    }
}
