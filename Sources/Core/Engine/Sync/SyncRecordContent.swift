import BackupFormat
import KeychainModel
import Query

/// What a sync record carries before it is sealed (`RecordSeal`): one item as a one-record stream of the backup
/// format (its class, protection class, attributes as the keychain encodes them, data as stored), or for a deleted
/// item, its tombstone: the primary key and the dates, no data.
public enum SyncRecordContent {
    /// The content of `record`, in zeroizing memory.
    public static func content(of record: BackupRecord) -> SecretBytes {
        BackupRecordStream.encode([record])
    }

    /// The one item `content` holds; anything else (no item, several, a damaged stream) is refused.
    public static func record(from content: SecretBytes) throws(BackupFormatError) -> BackupRecord {
        let records = try BackupRecordStream.decode(content)
        guard records.count == 1 else { throw .damaged("a sync record holds one item, not \(records.count)") }
        return records[0]
    }

    /// The tombstone of `record`: the attributes of its class's primary key and its dates, no data. It tells the other
    /// devices which item went, and nothing else about it.
    public static func tombstone(of record: BackupRecord) throws(KeychainStatus) -> BackupRecord {
        let kept = Set(AttributeCatalogue.uniquenessCodes(for: record.itemClass) + ["cdat", "mdat"])
        let attributes = try AttributeSet(decoding: record.attributes)
        let remaining = AttributeSet(attributes.filter { kept.contains($0.code) }.map { ($0.code, $0.value) })
        return BackupRecord(itemClass: record.itemClass, protection: record.protection, attributes: remaining.encoded(), secret: nil)
    }
}
