import BackupFormat
import Foundation
import KeychainModel
import Testing

/// Cutting a record stream into parts on record boundaries, each a record stream of its own.
@Suite("Record stream parts", .timeLimit(.minutes(10)))
struct RecordStreamPartsTests {
    static func records(_ count: Int, secretBytes: Int) -> [BackupRecord] {
        (0..<count).map { index in
            BackupRecord(
                itemClass: .genericPassword, protection: .afterFirstUnlock, attributes: Data("attributes-\(index)".utf8),
                secret: index % 3 == 0 ? nil : Data(repeating: UInt8(truncatingIfNeeded: index), count: secretBytes))
        }
    }

    @Test func partsHoldEveryRecordInOrderWithinTheirSize() throws {
        let records = Self.records(100, secretBytes: 1000)
        let stream = BackupRecordStream.encode(records)
        let parts = try BackupRecordStream.parts(of: stream, maximumBytes: 10_000)
        #expect(parts.count > 5)
        var decoded: [BackupRecord] = []
        for part in parts {
            let own = BackupRecordStream.stream(of: part, in: stream)
            #expect(own.count <= 10_000)
            #expect(try BackupRecordStream.count(in: own) == part.recordCount)
            decoded += try BackupRecordStream.decode(own)
        }
        #expect(decoded == records)
    }

    @Test func aRecordLargerThanAPartTravelsAlone() throws {
        let records = Self.records(4, secretBytes: 50_000)
        let parts = try BackupRecordStream.parts(of: BackupRecordStream.encode(records), maximumBytes: 10_000)
        #expect(parts.map(\.recordCount) == [1, 1, 1, 1])
    }

    @Test func anEmptyStreamIsOneEmptyPart() throws {
        let stream = BackupRecordStream.encode([])
        let parts = try BackupRecordStream.parts(of: stream, maximumBytes: 10_000)
        #expect(parts.map(\.recordCount) == [0])
        #expect(BackupRecordStream.stream(of: parts[0], in: stream) == stream)
    }

    @Test func aCutOrDamagedStreamIsRefused() throws {
        let whole = BackupRecordStream.encode(Self.records(3, secretBytes: 10))
        let bytes = whole.withUnsafeBytes { Array($0) }
        for damaged in [Array(bytes.dropLast()), bytes + [0], Array("junk".utf8)] {
            #expect(throws: BackupFormatError.self) {
                try BackupRecordStream.parts(of: SecretBytes(copying: damaged), maximumBytes: 1000)
            }
        }
    }
}
