import Foundation
import KeychainModel
import KeychainOperations

/// The fields of ``MessageTag/auditRecords``, ``MessageTag/auditPage`` and ``MessageTag/auditSetting``.
enum AuditCoding {
    static func encode(_ setting: AuditSetting, into writer: inout WireWriter) throws(ProtocolError) {
        writer.bool(setting.passcode != nil)
        if let passcode = setting.passcode { try writer.secret(passcode) }
        writer.byte(setting.refuseUnrecordedReads.map { $0 ? 2 : 1 } ?? 0)
    }

    static func decodeSetting(from reader: inout WireReader) throws(ProtocolError) -> AuditSetting {
        let passcode = try reader.bool("presence") ? try reader.secret() : nil
        switch try reader.byte() {
        case 0: return AuditSetting(passcode: passcode)
        case 1: return AuditSetting(passcode: passcode, refuseUnrecordedReads: false)
        case 2: return AuditSetting(passcode: passcode, refuseUnrecordedReads: true)
        case let other: throw .malformedPayload(.invalidField("an audit setting of \(other)"))
        }
    }

    static func encode(_ read: AuditRead, into writer: inout WireWriter) throws(ProtocolError) {
        writer.bool(read.passcode != nil)
        if let passcode = read.passcode { try writer.secret(passcode) }
        writer.uint64(read.after)
        writer.uint32(UInt32(clamping: read.limit))
        writer.bool(read.verify)
    }

    static func decodeRead(from reader: inout WireReader) throws(ProtocolError) -> AuditRead {
        let passcode = try reader.bool("presence") ? try reader.secret() : nil
        let after = try reader.uint64()
        let limit = Int(try reader.uint32())
        guard (1...AuditRead.largestLimit).contains(limit) else { throw .malformedPayload(.invalidField("an audit read's limit of \(limit)")) }
        return AuditRead(passcode: passcode, after: after, limit: limit, verify: try reader.bool("verify"))
    }

    static func encode(_ page: AuditPage, into writer: inout WireWriter) throws(ProtocolError) {
        try writer.count(page.records.count)
        for record in page.records {
            writer.uint64(record.sequence)
            try writer.bytes(record.encoded())
        }
        writer.bool(page.hasMore)
        switch page.check {
        case nil: writer.byte(0)
        case .intact(let records, let first, let last, let rotatedAway)?:
            writer.byte(1)
            writer.uint64(UInt64(records))
            writer.uint64(first)
            writer.uint64(last)
            writer.uint64(rotatedAway)
        case .damaged(let file, let sequence, let reason)?:
            writer.byte(2)
            try writer.text(file)
            writer.bool(sequence != nil)
            if let sequence { writer.uint64(sequence) }
            try writer.text(reason)
        }
    }

    static func decodePage(from reader: inout WireReader) throws(ProtocolError) -> AuditPage {
        let count = try reader.count(minimumElementSize: 12)
        var records: [AuditRecord] = []
        records.reserveCapacity(count)
        for _ in 0..<count {
            let sequence = try reader.uint64()
            let bytes = try reader.data()
            do {
                records.append(try AuditRecord(decoding: Array(bytes), sequence: sequence))
            } catch {
                throw .malformedPayload(.invalidField(error.reason))
            }
        }
        let hasMore = try reader.bool("more")
        let check: AuditCheck?
        switch try reader.byte() {
        case 0: check = nil
        case 1:
            check = .intact(
                records: Int(clamping: try reader.uint64()), firstSequence: try reader.uint64(), lastSequence: try reader.uint64(),
                rotatedAway: try reader.uint64())
        case 2:
            let file = try reader.text()
            let sequence = try reader.bool("sequence presence") ? try reader.uint64() : nil
            check = .damaged(file: file, sequence: sequence, reason: try reader.text())
        default: throw .malformedPayload(.invalidField("an audit check"))
        }
        return AuditPage(records: records, hasMore: hasMore, check: check)
    }
}
