import Crypto
import KeychainModel

/// The keys one read or write works with: the store's keyring and its cache of keyed indexers.
struct ItemKeys {
    let keyring: any ItemKeyring
    let indexers: IndexerCache

    /// The indexer of `itemClass` under the keyring's index key.
    func indexer(for itemClass: ItemClass) throws -> ItemCrypto.Indexer {
        try indexers.indexer(for: itemClass, indexKey: keyring.indexKey())
    }
}
