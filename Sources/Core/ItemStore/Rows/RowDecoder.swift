import Foundation
import GRDBSQLite
import KeychainModel

/// Turns the rows a selection steps through into ``StoredItem``s, checking each row's tag on the way.
enum RowDecoder {
    /// A stored item from a row of ``TableSchema/selectPrefix``; malformed plain columns are corrupt.
    /// The row tag is checked here, once, with the selection's indexer; `message` is scratch room for it,
    /// reused from row to row.
    ///
    /// The item keeps what opening it needs (its identity, wrapped key and sealed parts); the uniqueness
    /// digest and index columns go into the tag's message straight from SQLite's memory.
    ///
    /// A row whose plain columns are malformed (a wrong type, a persistent reference of the wrong length,
    /// an unknown protection class: edits of the file that bypass its CHECK constraints) comes back as a
    /// row that fails authentication, with placeholders for what could not be read, so the caller skips
    /// it as it skips any corrupt row instead of the whole selection failing.
    static func item(
        from row: RawStatement, table: TableSchema, indexer: ItemCrypto.Indexer, message: inout RowTagMessage
    ) -> StoredItem {
        let rowID = row.integer(0) ?? 0
        let protection = row.integer(2).flatMap { ProtectionClass(keyclassNumber: Int($0)) }
        var wellFormed = protection != nil
        message.start(protection: protection ?? .alwaysThisDeviceOnly)
        func part(_ column: Int32) -> Data {
            guard let data = row.blob(column) else {
                wellFormed = false
                return Data()
            }
            data.withUnsafeBytes { message.appendPart($0) }
            return data
        }
        var persistentRef = part(1)
        if persistentRef.count != ItemCrypto.persistentRefLength {
            wellFormed = false
            persistentRef = Data(count: ItemCrypto.persistentRefLength)
        }
        if !row.withBlob(3, { message.appendPart($0) }) { wellFormed = false }
        let wrappedKey = part(4)
        let attributes = part(5)
        let secret = part(6)
        for (offset, code) in table.lengthPrefixedCodes.enumerated() {
            let column = Int32(8 + offset)
            guard row.type(column) != SQLITE_NULL else { continue }
            if !row.withBlob(column, { message.appendIndex(code: code, value: $0) }) { wellFormed = false }
        }
        var tagIsValid = false
        if wellFormed {
            let tagged = row.withBlob(7) { stored in tagIsValid = indexer.isTag(stored, of: message) }
            tagIsValid = tagIsValid && tagged
        }
        let sealed = SealedRow(
            uniqueDigest: Data(), wrappedKey: wrappedKey, attributes: attributes, secret: secret, rowTag: Data(),
            indexes: [])
        return StoredItem(
            rowID: rowID, itemClass: table.itemClass, protection: protection ?? .alwaysThisDeviceOnly,
            persistentRef: persistentRef, sealed: sealed, tagIsValid: tagIsValid)
    }
}
