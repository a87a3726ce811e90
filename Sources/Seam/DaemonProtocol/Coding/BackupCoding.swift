import Foundation
import KeychainModel
import KeychainOperations

/// The fields of the backup messages: ``MessageTag/exportBackup``, ``MessageTag/stageRestore``,
/// ``MessageTag/restoreBackup``, ``MessageTag/backup`` and ``MessageTag/restoreReport``.
enum BackupCoding {
    static func encode(_ export: BackupExport, into writer: inout WireWriter) throws(ProtocolError) {
        writer.bool(export.passcode != nil)
        if let passcode = export.passcode { try writer.secret(passcode) }
    }

    static func decodeExport(from reader: inout WireReader) throws(ProtocolError) -> BackupExport {
        let passcode = try reader.bool("presence") ? try reader.secret() : nil
        return BackupExport(passcode: passcode)
    }

    static func encode(_ restore: BackupRestore, into writer: inout WireWriter) throws(ProtocolError) {
        try writer.secret(restore.records)
        writer.byte(policyByte(restore.policy))
        writer.bool(restore.staging != nil)
        if let staging = restore.staging { writer.uint64(staging.value) }
    }

    static func encode(_ part: RestorePart, into writer: inout WireWriter) throws(ProtocolError) {
        writer.uint64(part.staging.value)
        writer.uint32(UInt32(clamping: part.index))
        try writer.secret(part.records)
    }

    static func decodePart(from reader: inout WireReader) throws(ProtocolError) -> RestorePart {
        let staging = RestoreStagingID(try reader.uint64())
        let index = Int(try reader.uint32())
        return RestorePart(staging: staging, index: index, records: try reader.secret())
    }

    static func decodeRestore(from reader: inout WireReader) throws(ProtocolError) -> BackupRestore {
        let records = try reader.secret()
        let policy: RestorePolicy
        switch try reader.byte() {
        case 1: policy = .keep
        case 2: policy = .replace
        case 3: policy = .both
        default: throw .malformedPayload(.invalidField("restore policy"))
        }
        var restore = BackupRestore(records: records, policy: policy)
        if try reader.bool("staging presence") { restore.staging = RestoreStagingID(try reader.uint64()) }
        return restore
    }

    static func encode(_ contents: BackupContents, into writer: inout WireWriter) throws(ProtocolError) {
        try writer.count(contents.parts.count)
        for part in contents.parts {
            try writer.countValue()
            try writer.secret(part)
        }
        writer.uint32(UInt32(clamping: contents.itemCount))
        let left = contents.leftBehind
        for count in [left.thisDeviceOnly, left.passcodeSetOnly, left.nonExtractableKeys, left.deviceBound] {
            writer.uint32(UInt32(clamping: count))
        }
    }

    static func decodeContents(from reader: inout WireReader) throws(ProtocolError) -> BackupContents {
        let partCount = try reader.count(minimumElementSize: 4)
        var parts: [SecretBytes] = []
        for _ in 0..<partCount {
            try reader.countValue()
            parts.append(try reader.secret())
        }
        let itemCount = Int(try reader.uint32())
        let left = BackupContents.LeftBehind(
            thisDeviceOnly: Int(try reader.uint32()), passcodeSetOnly: Int(try reader.uint32()),
            nonExtractableKeys: Int(try reader.uint32()), deviceBound: Int(try reader.uint32()))
        return BackupContents(parts: parts, itemCount: itemCount, leftBehind: left)
    }

    static func encode(_ report: RestoreReport, into writer: inout WireWriter) throws(ProtocolError) {
        writer.uint32(UInt32(clamping: report.added))
        writer.uint32(UInt32(clamping: report.identical))
        try writer.count(report.conflicts.count)
        for conflict in report.conflicts {
            try writer.countValue()
            try writer.text(conflict.itemClass.rawValue)
            try writer.text(conflict.summary)
            writer.byte(conflict.outcome.rawValue)
        }
    }

    static func decodeReport(from reader: inout WireReader) throws(ProtocolError) -> RestoreReport {
        let added = Int(try reader.uint32())
        let identical = Int(try reader.uint32())
        let count = try reader.count(minimumElementSize: 10)
        var conflicts: [RestoreConflict] = []
        for _ in 0..<count {
            try reader.countValue()
            guard let itemClass = ItemClass(rawValue: try reader.text()) else { throw .malformedPayload(.invalidField("item class")) }
            let summary = try reader.text()
            guard let outcome = RestoreConflict.Outcome(rawValue: try reader.byte()) else {
                throw .malformedPayload(.invalidField("restore outcome"))
            }
            conflicts.append(RestoreConflict(itemClass: itemClass, summary: summary, outcome: outcome))
        }
        return RestoreReport(added: added, identical: identical, conflicts: conflicts)
    }

    private static func policyByte(_ policy: RestorePolicy) -> UInt8 {
        switch policy {
        case .keep: 1
        case .replace: 2
        case .both: 3
        }
    }
}
