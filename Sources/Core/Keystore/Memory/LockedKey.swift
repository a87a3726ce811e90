import Crypto
import KeychainModel

/// A key the keystore keeps for a long time (the device key, the index key, the class keys' working
/// keys), held in ``SecretBytes``: locked in memory where the system allows, zeroized when released.
///
/// `SymmetricKey`'s own storage cannot be locked without locking the heap pages it shares with other
/// allocations, so the bytes live here and each use gets a short-lived `SymmetricKey` built from them
/// (its storage is zeroized by swift-crypto when the use ends).
struct LockedKey: Sendable {
    private let bytes: SecretBytes

    /// Copies `key` into locked storage.
    init(_ key: SymmetricKey) {
        bytes = key.withUnsafeBytes { SecretBytes(copying: $0) }
    }

    /// Copies raw key bytes into locked storage.
    init(bytes raw: UnsafeRawBufferPointer) {
        bytes = SecretBytes(copying: raw)
    }

    /// The key, for one use.
    var key: SymmetricKey { bytes.withUnsafeBytes { SymmetricKey(data: $0) } }

    /// Whether the bytes are locked in memory.
    var isLockedInMemory: Bool { bytes.isLockedInMemory }
}

extension Keystore {
    /// Whether every key this keystore holds in memory (the device key, the index key and the working keys
    /// of each available class key) is locked in memory.
    var keyMaterialIsLockedInMemory: Bool {
        deviceKey.isLockedInMemory
            && state.withLock { state in
                state.indexKey.isLockedInMemory && state.classKeys.values.allSatisfy(\.isLockedInMemory)
            }
    }
}
