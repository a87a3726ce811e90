import Foundation
import KeyCrypto
import KeychainOperations
import KeychainModel
import Query
import Synchronization

/// Token keys opened recently, by their seal: each use of a key that never leaves the keychain would
/// otherwise unwrap its data key with the class key, open the sealed scalar and rebuild the private key
/// (two scalar multiplications), four times the signature's own cost.
///
/// An opened key is kept only while the class keys that opened it are in memory: the keystore empties
/// this at every lock and erase (``Keystore/whenClassKeysDropped(_:)``), so a locked class's keys are
/// never used from here, and the seal is opened (and its class checked) again after the next unlock.
/// The key's access control is checked at every use, as for a key just opened. At most ``capacity``
/// keys are kept; when full, the table starts over.
final class OpenedTokenKeys: Sendable {
    /// The private key itself: Apple's kinds as KeyCrypto holds them, or a post-quantum key.
    enum OpenedKey: Sendable {
        case classic(AsymmetricKey)
        case postQuantum(PostQuantumPrivateKey)
    }

    /// A key opened from its seal, with the access control the seal carried.
    struct Opened: Sendable {
        let key: OpenedKey
        let kind: TokenKeyCreation.Kind
        let accessControl: AccessControl
    }

    /// The most keys kept.
    static let capacity = 64

    private let keys = Mutex<[Data: Opened]>([:])

    /// The key opened from `sealed`, if it is kept.
    func key(sealed: Data) -> Opened? {
        keys.withLock { $0[sealed] }
    }

    /// Keeps `opened` for `sealed`.
    func keep(_ opened: Opened, sealed: Data) {
        keys.withLock { keys in
            if keys.count >= Self.capacity { keys.removeAll() }
            keys[sealed] = opened
        }
    }

    /// Forgets every key (class keys left memory).
    func removeAll() {
        keys.withLock { $0.removeAll() }
    }

    /// How many keys are kept (tests).
    var count: Int { keys.withLock { $0.count } }
}
