import AuditTrail
import Foundation
import Testing

/// The journal keeps what it was given, sealed, in order, and says where it was tampered with: a flipped byte, a
/// record removed from the middle or the end, two records swapped, a segment made up or removed.
@Suite struct AuditJournalTests {
    private static let keys = AuditKeys(material: (0..<64).map { UInt8($0) })

    /// A journal folder of its own, removed afterwards.
    private final class Folder {
        let path: String
        init() {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-audit-\(UUID().uuidString)").path
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        var segments: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasPrefix("segment-") }.sorted().map { path + "/" + $0 }
        }
    }

    private func payload(_ index: Int) -> [UInt8] { Array("record \(index) SECRET-MARKER-\(index)".utf8) }

    private func journal(_ folder: Folder, limits: AuditJournal.Limits = .init()) throws -> AuditJournal {
        try AuditJournal(folder: folder.path, keys: Self.keys, limits: limits)
    }

    @Test func recordsComeBackInOrderAndTheSequenceGoesOnAfterReopening() throws {
        let folder = Folder()
        do {
            let journal = try journal(folder)
            for index in 1...5 { #expect(try journal.append(payload(index)) == UInt64(index)) }
        }
        let reopened = try journal(folder)
        #expect(try reopened.append(payload(6)) == 6)
        #expect(try reopened.records().map(\.payload) == (1...6).map(payload))
        #expect(try reopened.records(after: 4).map(\.sequence) == [5, 6])
        #expect(reopened.verify() == .intact(records: 6, firstSequence: 1, lastSequence: 6, rotatedAway: 0))
        // The folder and files are the owner's alone, and no payload is in them in the clear.
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        for file in folder.segments + [folder.path + "/head"] {
            #expect((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) == 0o600)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(bytes.range(of: Data("SECRET-MARKER".utf8)) == nil)
        }
    }

    @Test func aFlippedByteIsFoundInTheRecordItChanged() throws {
        let folder = Folder()
        let journal = try journal(folder)
        for index in 1...5 { try journal.append(payload(index)) }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: folder.segments[0]))
        let frames = Self.frameOffsets(bytes)
        bytes[frames[2] + 30] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: folder.segments[0]))
        guard case .damaged(_, let sequence, let reason) = journal.verify() else {
            Issue.record("a changed record passed")
            return
        }
        #expect(sequence == 3)
        #expect(reason.contains("changed"))
        #expect(throws: AuditJournalError.self) { try journal.records() }
    }

    @Test func aRemovedOrSwappedRecordIsFound() throws {
        let folder = Folder()
        let journal = try journal(folder)
        for index in 1...5 { try journal.append(payload(index)) }
        let original = try Data(contentsOf: URL(fileURLWithPath: folder.segments[0]))
        let frames = Self.frameOffsets(original) + [original.count]
        let record = { (index: Int) in original[frames[index]..<frames[index + 1]] }
        let header = original[0..<frames[0]]

        var removed = header
        for index in [0, 1, 3, 4] { removed += record(index) }
        try removed.write(to: URL(fileURLWithPath: folder.segments[0]))
        #expect(journal.verify() == .damaged(file: folder.segments[0], sequence: 3, reason: "records 3–3 are missing"))

        var swapped = header
        for index in [0, 2, 1, 3, 4] { swapped += record(index) }
        try swapped.write(to: URL(fileURLWithPath: folder.segments[0]))
        #expect(journal.verify() == .damaged(file: folder.segments[0], sequence: 2, reason: "records 2–2 are missing"))

        var cut = header
        for index in [0, 1, 2] { cut += record(index) }
        try cut.write(to: URL(fileURLWithPath: folder.segments[0]))
        #expect(journal.verify() == .damaged(file: folder.path + "/head", sequence: 3, reason: "records 4–5 were removed from the end"))

        // A head made up from what the file shows (record 3's sequence and tag) lacks the secret sealed in record 3.
        let tag = Array(record(2).suffix(16))
        let madeUp = (0..<8).map { UInt8(truncatingIfNeeded: UInt64(3) >> (56 - 8 * $0)) } + tag + [UInt8](repeating: 0, count: 16)
        try Data(madeUp).write(to: URL(fileURLWithPath: folder.path + "/head"))
        #expect(journal.verify() == .damaged(file: folder.path + "/head", sequence: 3, reason: "the head does not name the last record"))

        try FileManager.default.removeItem(atPath: folder.path + "/head")
        #expect(journal.verify() == .damaged(file: folder.path + "/head", sequence: nil, reason: "the head is missing or was changed"))
    }

    @Test func anotherKeySeesNothingItCanTrust() throws {
        let folder = Folder()
        try journal(folder).append(payload(1))
        let stranger = AuditKeys(material: (0..<64).map { UInt8(255 - $0) })
        #expect(throws: AuditJournalError.self) { try AuditJournal(folder: folder.path, keys: stranger) }
    }

    @Test func oldSegmentsRotateAwayAndWhatIsKeptStillVerifies() throws {
        let folder = Folder()
        let limits = AuditJournal.Limits(segmentBytes: 70_000, segmentsKept: 3)
        let journal = try journal(folder, limits: limits)
        let large = [UInt8](repeating: 0x41, count: 2_000)
        for _ in 1...200 { try journal.append(large) }
        #expect(folder.segments.count == 3)
        guard case .intact(let records, let first, let last, let rotatedAway) = journal.verify() else {
            Issue.record("\(journal.verify())")
            return
        }
        #expect(last == 200 && first > 1 && rotatedAway == first - 1 && records == Int(last - first + 1))
        // Reopened, the journal goes on where it was.
        let reopened = try self.journal(folder, limits: limits)
        try reopened.append(large)
        #expect(try reopened.records().first?.sequence == first)
        #expect(try reopened.records().last?.sequence == 201)
        // A kept segment removed from the middle of the chain is found, and so is the oldest removed outside rotation.
        let segments = folder.segments
        let middle = try Data(contentsOf: URL(fileURLWithPath: segments[1]))
        try FileManager.default.removeItem(atPath: segments[1])
        guard case .damaged(_, _, let reason) = reopened.verify() else {
            Issue.record("a missing segment passed")
            return
        }
        #expect(reason.hasSuffix("is missing"))
        try middle.write(to: URL(fileURLWithPath: segments[1]))
        #expect(reopened.verify().isIntact)
        try FileManager.default.removeItem(atPath: segments[0])
        guard case .damaged(_, _, let oldest) = reopened.verify() else {
            Issue.record("the oldest segment removed passed as rotation")
            return
        }
        #expect(oldest.contains("not by rotation"))
    }

    @Test func aRecordCutShortByACrashIsDroppedOnOpening() throws {
        let folder = Folder()
        do {
            let journal = try journal(folder)
            for index in 1...3 { try journal.append(payload(index)) }
        }
        // The start of a fourth record, as a process killed in the middle of write(2) could leave it.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.segments[0]))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0, 0, 0, 90, 0, 0, 0]))
        try handle.close()
        let reopened = try journal(folder)
        #expect(try reopened.append(payload(4)) == 4)
        #expect(reopened.verify() == .intact(records: 4, firstSequence: 1, lastSequence: 4, rotatedAway: 0))
    }

    @Test func aFolderOthersCanReadIsRefused() throws {
        let folder = Folder()
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        #expect(throws: AuditJournalError.self) { try AuditJournal(folder: folder.path, keys: Self.keys) }
    }

    /// Where each record of a segment starts.
    private static func frameOffsets(_ bytes: Data) -> [Int] {
        var offsets: [Int] = []
        var offset = 4 + 1 + 4 + 8 + 8 + 16 + 32
        let all = [UInt8](bytes)
        while offset + 4 <= all.count {
            offsets.append(offset)
            let length = all[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            offset += 4 + length
        }
        return offsets
    }
}
