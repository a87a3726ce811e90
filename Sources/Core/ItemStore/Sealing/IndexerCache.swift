import Crypto
import KeychainModel
import Synchronization

/// One keyed ``ItemCrypto/Indexer`` per item class, kept for the store's life so that the HMAC key
/// schedule runs once rather than on every request. An entry is rebuilt when the keyring's index key
/// changes (a keychain erased and recreated under the same store).
final class IndexerCache: Sendable {
    private let entries = Mutex<[ItemClass: Entry]>([:])

    private struct Entry: Sendable {
        let indexKey: SymmetricKey
        let indexer: ItemCrypto.Indexer
    }

    /// The indexer of `itemClass` under `indexKey`.
    func indexer(for itemClass: ItemClass, indexKey: SymmetricKey) -> ItemCrypto.Indexer {
        entries.withLock { entries in
            if let entry = entries[itemClass], entry.indexKey == indexKey { return entry.indexer }
            let indexer = ItemCrypto.Indexer(indexKey: indexKey, itemClass: itemClass)
            entries[itemClass] = Entry(indexKey: indexKey, indexer: indexer)
            return indexer
        }
    }
}
