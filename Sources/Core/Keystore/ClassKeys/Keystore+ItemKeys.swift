import Crypto
import Foundation
import KeychainModel

// The keys the layers above ask for. None of them is a class key.
extension Keystore {
    /// Wraps a per-item key under the class key of `protection`.
    public func wrapItemKey(_ key: SymmetricKey, protection: ProtectionClass) throws(KeystoreError) -> Data {
        let material = try usableClassKey(protection)
        do {
            return try AES.KeyWrap.wrap(key, using: material.itemKeyWrapping)
        } catch {
            throw .wrappedKeyCorrupt
        }
    }

    /// Unwraps a per-item key wrapped under the class key of `protection`.
    public func unwrapItemKey(_ wrapped: Data, protection: ProtectionClass) throws(KeystoreError) -> SymmetricKey {
        let material = try usableClassKey(protection)
        return try KeyWrap.unwrap(wrapped, with: material.itemKeyWrapping)
    }

    /// The key that seals item attributes of `protection`; available exactly when the class key is.
    public func metadataKey(for protection: ProtectionClass) throws(KeystoreError) -> SymmetricKey {
        try usableClassKey(protection).metadata
    }

    /// The blind-index key: protected by the device key alone, so matching and delete work in every lock state.
    public func indexKey() -> SymmetricKey { state.withLock { $0.indexKey.key } }

    /// The keys of the audit journal, derived from the device key alone: records are written in every lock state
    /// (a lock, a wrong passcode), survive an erase after too many wrong passcodes, and read only with the device key.
    public func auditKeys() -> (sealing: SymmetricKey, chaining: SymmetricKey) {
        (deviceKey.derivedKey("coffer audit sealing v1"), deviceKey.derivedKey("coffer audit chaining v1"))
    }

    /// The working keys of `protection`'s class key, if the lock state lets it be used.
    func usableClassKey(_ protection: ProtectionClass) throws(KeystoreError) -> ClassKeyMaterial {
        let (material, passcodeSet) = state.withLock { ($0.classKeys[protection], $0.passcodeSet) }
        if let material { return material }
        if protection == .whenPasscodeSetThisDeviceOnly, !passcodeSet { throw .classMissing(protection) }
        throw .classUnavailable(protection)
    }
}
