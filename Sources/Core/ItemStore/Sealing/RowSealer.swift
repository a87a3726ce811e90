import Crypto
import Foundation
import KeychainModel

/// Seals an item into the stored bytes of its row, and opens a selected row's sealed parts
/// (the format is ``ItemCrypto``'s). Keyring errors propagate unchanged.
enum RowSealer {
    /// Seals an item for the row with `persistentRef`: its blind indexes, uniqueness digest, attributes
    /// (under the metadata key), secret (under a fresh item key, which the keyring wraps) and row tag.
    static func seal(_ item: NewItem, persistentRef: Data, table: TableSchema, keys: ItemKeys) throws -> SealedRow {
        let indexer = try keys.indexer(for: item.itemClass)
        var indexes = [Data?](repeating: nil, count: table.codes.count)
        for (code, value) in item.indexValues {
            indexes[table.position[code]!] = indexer.index(code: code, value: value)
        }
        let metadataKey = try keys.keyring.metadataKey(for: item.protection)
        // The item key and both nonces, from one call to the system's generator.
        var random = ItemCrypto.randomBytes(32 + 2 * 12)
        defer { random.zeroize() }
        let itemKey = SymmetricKey(data: random[0..<32])
        let attributes = try ItemCrypto.seal(
            item.attributes, key: metadataKey, nonce: try AES.GCM.Nonce(data: random[32..<44]),
            aad: ItemCrypto.aad(
                .attributes, version: ItemCrypto.formatVersion, itemClass: item.itemClass,
                protection: item.protection, persistentRef: persistentRef),
            withPresenceByte: false)
        let secret = try ItemCrypto.seal(
            item.secret, key: itemKey, nonce: try AES.GCM.Nonce(data: random[44..<56]),
            aad: ItemCrypto.aad(
                .secret, version: ItemCrypto.formatVersion, itemClass: item.itemClass, protection: item.protection,
                persistentRef: persistentRef),
            withPresenceByte: true)
        let wrappedKey = try keys.keyring.wrapItemKey(itemKey, protection: item.protection)
        var sealed = SealedRow(
            uniqueDigest: indexer.uniqueDigest(item.uniqueKey), wrappedKey: wrappedKey, attributes: attributes,
            secret: secret, rowTag: Data(), indexes: indexes)
        sealed.rowTag = indexer.rowTag(
            protection: item.protection, persistentRef: persistentRef, sealed: sealed, codes: table.codes)
        return sealed
    }

    /// The attributes of a selected row (see ``ItemReading/openAttributes(_:)``).
    static func openAttributes(_ item: StoredItem, keyring: any ItemKeyring) throws -> Data {
        guard item.tagIsValid else { throw ItemStoreError.corrupt(rowID: item.rowID) }
        guard let version = ItemCrypto.version(of: item.sealed.attributes) else {
            throw ItemStoreError.corrupt(rowID: item.rowID)
        }
        let key = try keyring.metadataKey(for: item.protection)
        let aad = ItemCrypto.aad(
            .attributes, version: version, itemClass: item.itemClass, protection: item.protection,
            persistentRef: item.persistentRef)
        return try ItemCrypto.open(
            item.sealed.attributes, key: key, aad: aad, withPresenceByte: false, rowID: item.rowID) ?? Data()
    }

    /// The secret of a selected row (see ``ItemReading/openSecret(_:)``).
    static func openSecret(_ item: StoredItem, keyring: any ItemKeyring) throws -> Data? {
        guard item.tagIsValid else { throw ItemStoreError.corrupt(rowID: item.rowID) }
        guard let version = ItemCrypto.version(of: item.sealed.secret) else {
            throw ItemStoreError.corrupt(rowID: item.rowID)
        }
        let itemKey = try keyring.unwrapItemKey(item.sealed.wrappedKey, protection: item.protection)
        let aad = ItemCrypto.aad(
            .secret, version: version, itemClass: item.itemClass, protection: item.protection,
            persistentRef: item.persistentRef)
        return try ItemCrypto.open(item.sealed.secret, key: itemKey, aad: aad, withPresenceByte: true, rowID: item.rowID)
    }
}
