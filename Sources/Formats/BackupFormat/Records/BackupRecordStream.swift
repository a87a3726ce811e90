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
        let length = records.reduce(headerLength) { $0 + encodedLength(of: $1) }
        return SecretBytes(capacity: length) { buffer in
            var cursor = PlaintextCursor(buffer: buffer)
            cursor.append(header(count: records.count))
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

    /// The bytes `record` takes in a stream.
    static func encodedLength(of record: BackupRecord) -> Int {
        2 + record.itemClass.rawValue.utf8.count + record.protection.rawValue.utf8.count
            + 4 + record.attributes.count + 1 + (record.secret.map { 4 + $0.count } ?? 0)
    }

    /// A stream's header: magic, version, and `count` (UInt32 BE).
    static func header(count: Int) -> [UInt8] {
        var header = magic + [version]
        withUnsafeBytes(of: UInt32(count).bigEndian) { header.append(contentsOf: $0) }
        return header
    }

    /// The number of records, after checking the whole stream's structure.
    public static func count(in stream: SecretBytes) throws(BackupFormatError) -> Int {
        var count = 0
        try walk(stream) { _ in count += 1 }
        return count
    }

    /// The number of records `stream`'s header declares (its header alone is checked).
    public static func declaredCount(of stream: SecretBytes) throws(BackupFormatError) -> Int {
        try stream.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws(BackupFormatError) -> Int in
            var reader = PlaintextReader(bytes: bytes, whole: "the item list")
            return try readHeader(&reader)
        }
    }

    /// Every record; throws ``BackupFormatError/damaged(_:)`` for anything malformed (bad magic or version,
    /// an unknown class or protection, a length past the end, trailing bytes).
    public static func decode(_ stream: SecretBytes) throws(BackupFormatError) -> [BackupRecord] {
        var records: [BackupRecord] = []
        try walk(stream) { records.append($0) }
        return records
    }

    /// ``forEachRecord(in:_:)`` with a body that cannot fail.
    private static func walk(_ stream: SecretBytes, _ body: (BackupRecord) -> Void) throws(BackupFormatError) {
        do throws(RecordWalkError<Never>) {
            try forEachRecord(in: stream, body)
        } catch {
            switch error {
            case .format(let failure): throw failure
            case .body(let never): switch never {}
            }
        }
    }

    /// Calls `body` with each record in turn, one in memory at a time, checking the structure as it goes:
    /// a malformed stream throws ``BackupFormatError/damaged(_:)`` when the walk reaches the fault (after the
    /// records before it), and an error `body` throws ends the walk and propagates.
    public static func forEachRecord<Failure: Error>(
        in stream: SecretBytes, _ body: (BackupRecord) throws(Failure) -> Void
    ) throws(RecordWalkError<Failure>) {
        try stream.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws(RecordWalkError<Failure>) in
            var reader = PlaintextReader(bytes: bytes, whole: "the item list")
            let count: Int
            do throws(BackupFormatError) { count = try readHeader(&reader) } catch { throw .format(error) }
            for _ in 0..<count {
                let record: BackupRecord
                do throws(BackupFormatError) { record = try readRecord(&reader) } catch { throw .format(error) }
                do throws(Failure) { try body(record) } catch { throw .body(error) }
            }
            guard reader.offset == bytes.count else { throw .format(.damaged("bytes follow the last item")) }
        }
    }

    /// Reads and checks a stream's header; returns the record count, bounded by what the input can hold.
    private static func readHeader(_ reader: inout PlaintextReader) throws(BackupFormatError) -> Int {
        guard try reader.take(magic.count).elementsEqual(magic), try reader.byte() == version else {
            throw .damaged("the item list has no valid header")
        }
        let count = Int(try reader.integer(UInt32.self))
        // Every record takes at least 8 bytes: a count cannot ask for more room than the input justifies.
        guard count <= reader.bytes.count / 8 else { throw .damaged("the item count does not fit the item list") }
        return count
    }

    private static func readRecord(_ reader: inout PlaintextReader) throws(BackupFormatError) -> BackupRecord {
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
        return BackupRecord(itemClass: itemClass, protection: protection, attributes: attributes, secret: secret)
    }
}

/// Why a walk over a record stream (``BackupRecordStream/forEachRecord(in:_:)``) stopped: the stream is
/// malformed, or the body threw.
public enum RecordWalkError<Failure: Error>: Error {
    case format(BackupFormatError)
    case body(Failure)
}
