import Foundation
import KeychainModel

/// The plaintext inside a backup: every record, one after the other.
///
/// Layout: `CFBR`, version byte `1`, record count (UInt32 BE), then per record the class and the protection
/// class (each a UInt8 length and UTF-8), the attributes (UInt32 BE length and bytes), a presence byte for
/// the value data, then its length (UInt32 BE) and bytes. Nothing follows the last record.
public enum BackupRecordStream {
    static let magic: [UInt8] = Array("CFBR".utf8)
    static let version: UInt8 = 1

    /// The records as one zeroizing buffer, written in place (no intermediate copy of the secrets).
    public static func encode(_ records: [BackupRecord]) -> SecretBytes {
        var length = magic.count + 1 + 4
        for record in records {
            length += 2 + record.itemClass.rawValue.utf8.count + record.protection.rawValue.utf8.count
            length += 4 + record.attributes.count + 1 + (record.secret.map { 4 + $0.count } ?? 0)
        }
        return SecretBytes(capacity: length) { buffer in
            var cursor = PlaintextCursor(buffer: buffer)
            cursor.append(magic)
            cursor.append([version])
            cursor.integer(UInt32(records.count))
            for record in records {
                cursor.text8(record.itemClass.rawValue)
                cursor.text8(record.protection.rawValue)
                cursor.integer(UInt32(record.attributes.count))
                cursor.append(record.attributes)
                if let secret = record.secret {
                    cursor.append([1])
                    cursor.integer(UInt32(secret.count))
                    cursor.append(secret)
                } else {
                    cursor.append([0])
                }
            }
            precondition(cursor.offset == length, "backup record stream length")
            return length
        }
    }

    /// The number of records, after checking the whole stream's structure.
    public static func count(in stream: SecretBytes) throws(BackupFormatError) -> Int {
        try decode(stream).count
    }

    /// Every record; throws ``BackupFormatError/damaged(_:)`` for anything malformed (bad magic or version,
    /// an unknown class or protection, a length past the end, trailing bytes).
    public static func decode(_ stream: SecretBytes) throws(BackupFormatError) -> [BackupRecord] {
        try stream.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws(BackupFormatError) -> [BackupRecord] in
            var reader = PlaintextReader(bytes: bytes, whole: "the item list")
            guard try reader.take(magic.count).elementsEqual(magic), try reader.byte() == version else {
                throw .damaged("the item list has no valid header")
            }
            let count = Int(try reader.integer(UInt32.self))
            // Every record takes at least 8 bytes: a count cannot ask for more room than the input justifies.
            guard count <= bytes.count / 8 else { throw .damaged("the item count does not fit the item list") }
            var records: [BackupRecord] = []
            records.reserveCapacity(count)
            for _ in 0..<count {
                guard let itemClass = ItemClass(rawValue: try reader.text8()), itemClass != .identity else {
                    throw .damaged("an item has an unknown class")
                }
                guard let protection = ProtectionClass(rawValue: try reader.text8()) else {
                    throw .damaged("an item has an unknown protection class")
                }
                let attributes = Data(try reader.take(Int(try reader.integer(UInt32.self))))
                let secret: Data?
                switch try reader.byte() {
                case 0: secret = nil
                case 1: secret = Data(try reader.take(Int(try reader.integer(UInt32.self))))
                default: throw .damaged("an item's value flag is invalid")
                }
                records.append(BackupRecord(itemClass: itemClass, protection: protection, attributes: attributes, secret: secret))
            }
            guard reader.offset == bytes.count else { throw .damaged("bytes follow the last item") }
            return records
        }
    }
}
