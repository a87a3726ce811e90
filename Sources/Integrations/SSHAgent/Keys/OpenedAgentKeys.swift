import Foundation
import KeyCrypto
import KeychainModel
import Synchronization

/// Software keys the agent has made from their items' bytes, by application label, so that a signature does not make
/// the key again (for Ed25519 and P-256, a scalar multiplication; for P-256, two key objects) each time.
///
/// A key is used only after the keychain has just answered the same bytes for the same item: the search that finds
/// the item still runs for every signature, so a key removed, replaced or locked away in the keychain is never used from
/// here. At most ``capacity`` keys are kept; when full, the table starts over.
final class OpenedAgentKeys: Sendable {
    /// The most keys kept.
    static let capacity = 64

    private let keys = Mutex<[Data: AsymmetricKey]>([:])

    /// The key for the item with `label` whose private bytes (its external representation) are `bytes`: the kept one
    /// when its bytes are the same (compared in constant time), else one made now, of `type`, and kept.
    func key(label: Data, bytes: Data, type: KeyType) throws(KeyCryptoError) -> AsymmetricKey {
        if let kept = keys.withLock({ $0[label] }), Self.sameBytes(kept, bytes) { return kept }
        let made = try AsymmetricKey(externalRepresentation: bytes, type: type, keyClass: .privateKey)
        keys.withLock { keys in
            if keys.count >= Self.capacity { keys.removeAll() }
            keys[label] = made
        }
        return made
    }

    private static func sameBytes(_ key: AsymmetricKey, _ bytes: Data) -> Bool {
        var kept = key.externalRepresentation()
        defer { kept.zeroize() }
        guard kept.count == bytes.count else { return false }
        return zip(kept, bytes).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
