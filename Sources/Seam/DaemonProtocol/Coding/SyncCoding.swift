import Foundation
import KeychainModel
import KeychainOperations

/// The fields of ``MessageTag/syncState``, ``MessageTag/syncStateResult`` and ``MessageTag/syncReport``.
enum SyncCoding {
    static func encode(_ state: SyncState, into writer: inout WireWriter) throws(ProtocolError) {
        writer.bool(state.isSyncing)
        writer.int(state.pending)
        writer.int(state.mirrored)
        writer.int(state.waitingForUnlock)
        writer.int(state.conflicts)
        switch state.lastRun {
        case nil:
            writer.byte(0)
        case .synced(let report, let at)?:
            writer.byte(1)
            encode(report, into: &writer)
            writer.date(at)
        case .failed(let reason, let at)?:
            writer.byte(2)
            try writer.text(reason)
            writer.date(at)
        }
    }

    static func decodeState(from reader: inout WireReader) throws(ProtocolError) -> SyncState {
        let isSyncing = try reader.bool("syncing")
        let pending = try reader.count64()
        let mirrored = try reader.count64()
        let waiting = try reader.count64()
        let conflicts = try reader.count64()
        let lastRun: SyncRunOutcome?
        switch try reader.byte() {
        case 0: lastRun = nil
        case 1:
            let report = try decodeReport(from: &reader)
            lastRun = .synced(report, at: try reader.date())
        case 2:
            let reason = try reader.text()
            lastRun = .failed(reason: reason, at: try reader.date())
        default: throw .malformedPayload(.invalidField("sync run outcome"))
        }
        return SyncState(
            isSyncing: isSyncing, pending: pending, mirrored: mirrored, waitingForUnlock: waiting, conflicts: conflicts, lastRun: lastRun)
    }

    static func encode(_ report: SyncReport, into writer: inout WireWriter) {
        for count in [report.sent, report.received, report.applied, report.conflicts, report.refused, report.waiting, report.collected] {
            writer.int(count)
        }
    }

    static func decodeReport(from reader: inout WireReader) throws(ProtocolError) -> SyncReport {
        var report = SyncReport()
        report.sent = try reader.count64()
        report.received = try reader.count64()
        report.applied = try reader.count64()
        report.conflicts = try reader.count64()
        report.refused = try reader.count64()
        report.waiting = try reader.count64()
        report.collected = try reader.count64()
        return report
    }
}

extension WireWriter {
    /// A date: seconds since 1970 as the bits of a Double.
    fileprivate mutating func date(_ date: Date) { uint64(date.timeIntervalSince1970.bitPattern) }
}

extension WireReader {
    /// A count written as Int64: never negative.
    fileprivate mutating func count64() throws(ProtocolError) -> Int {
        let value = try int64()
        guard value >= 0, value <= Int64(Int32.max) else { throw .malformedPayload(.invalidField("count")) }
        return Int(value)
    }

    /// A date written by `WireWriter.date`: a finite number of seconds.
    fileprivate mutating func date() throws(ProtocolError) -> Date {
        let seconds = Double(bitPattern: try uint64())
        guard seconds.isFinite else { throw .malformedPayload(.invalidField("date")) }
        return Date(timeIntervalSince1970: seconds)
    }
}
