import Crypto
import Foundation
import ItemStore
import KeychainModel
import Keystore

/// Lets the item store use the keystore's class keys without seeing them.
struct KeystoreKeyring: ItemKeyring {
    let keystore: Keystore

    func wrapItemKey(_ key: SymmetricKey, protection: ProtectionClass) throws -> Data {
        try keystore.wrapItemKey(key, protection: protection)
    }

    func unwrapItemKey(_ wrapped: Data, protection: ProtectionClass) throws -> SymmetricKey {
        try keystore.unwrapItemKey(wrapped, protection: protection)
    }

    func metadataKey(for protection: ProtectionClass) throws -> SymmetricKey {
        try keystore.metadataKey(for: protection)
    }

    func indexKey() throws -> SymmetricKey { keystore.indexKey() }
}
