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
            var cursor = Cursor(buffer: buffer)
            cursor.append(magic)
            cursor.append([version])
            cursor.uint32(UInt32(records.count))
            for record in records {
                cursor.text8(record.itemClass.rawValue)
                cursor.text8(record.protection.rawValue)
                cursor.uint32(UInt32(record.attributes.count))
                cursor.append(record.attributes)
                if let secret = record.secret {
                    cursor.append([1])
                    cursor.uint32(UInt32(secret.count))
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
            var reader = Reader(bytes: bytes)
            guard try reader.take(magic.count).elementsEqual(magic), try reader.byte() == version else {
                throw .damaged("the item list has no valid header")
            }
            let count = Int(try reader.uint32())
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
                let attributes = Data(try reader.take(Int(try reader.uint32())))
                let secret: Data?
                switch try reader.byte() {
                case 0: secret = nil
                case 1: secret = Data(try reader.take(Int(try reader.uint32())))
                default: throw .damaged("an item's value flag is invalid")
                }
                records.append(BackupRecord(itemClass: itemClass, protection: protection, attributes: attributes, secret: secret))
            }
            guard reader.offset == bytes.count else { throw .damaged("bytes follow the last item") }
            return records
        }
    }

    private struct Cursor {
        let buffer: UnsafeMutableRawBufferPointer
        var offset = 0

        mutating func append(_ bytes: some Collection<UInt8>) {
            for byte in bytes {
                buffer[offset] = byte
                offset += 1
            }
        }

        mutating func uint32(_ value: UInt32) { append(withUnsafeBytes(of: value.bigEndian) { Array($0) }) }

        mutating func text8(_ text: String) {
            append([UInt8(text.utf8.count)])
            append(text.utf8)
        }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        mutating func take(_ count: Int) throws(BackupFormatError) -> UnsafeRawBufferPointer {
            guard count >= 0, count <= bytes.count - offset else { throw .damaged("a length runs past the end of the item list") }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
        }

        mutating func byte() throws(BackupFormatError) -> UInt8 { try take(1)[0] }

        mutating func uint32() throws(BackupFormatError) -> UInt32 {
            try take(4).reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func text8() throws(BackupFormatError) -> String {
            let raw = try take(Int(try byte()))
            guard let text = String(validating: raw, as: UTF8.self) else { throw .damaged("a name is not UTF-8") }
            return text
        }
    }
}
