import BackupFormat
import Foundation
import KeychainModel
import Testing

/// The pieces that let a backup of any size go through in bounded memory: building record streams in parts,
/// cutting a stream that arrives piece by piece, and sealing and opening a file a chunk at a time.
@Suite("Streamed backup format", .timeLimit(.minutes(10)))
struct StreamedBackupFormatTests {
    static let records = RecordStreamPartsTests.records(300, secretBytes: 700)

    /// The bytes of `stream`.
    static func bytes(_ stream: SecretBytes) -> [UInt8] { stream.withUnsafeBytes { Array($0) } }

    /// Feeds `bytes` to a splitter in pieces of `piece` bytes; returns the parts.
    static func split(_ bytes: [UInt8], piece: Int, maximumBytes: Int) throws -> [SecretBytes] {
        let splitter = BackupRecordStream.Splitter(maximumBytes: maximumBytes, largestPiece: piece)
        var parts: [SecretBytes] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            parts += try bytes[offset..<end].withUnsafeBytes { try splitter.append($0) }
            offset = end
        }
        if let last = try splitter.finish() { parts.append(last) }
        return parts
    }

    @Test func builtPartsJoinIntoTheStreamOfTheirRecords() throws {
        var builder = BackupRecordStream.PartBuilder(maximumBytes: 20_000)
        for record in Self.records { builder.append(record) }
        let parts = builder.finish()
        #expect(builder.recordCount == Self.records.count)
        #expect(parts.count > 5)
        #expect(parts.allSatisfy { $0.count <= 20_000 })
        let joined = try BackupRecordStream.joined(parts)
        #expect(joined == BackupRecordStream.encode(Self.records))
        #expect(BackupRecordStream.joinedLength(of: parts) == joined.count)
        var pieces: [UInt8] = []
        try BackupRecordStream.forEachPiece(joining: parts) { pieces += $0 }
        #expect(pieces == Self.bytes(joined))
    }

    @Test func noRecordsBuildOneEmptyPart() throws {
        var builder = BackupRecordStream.PartBuilder(maximumBytes: 20_000)
        let parts = builder.finish()
        #expect(parts.count == 1)
        #expect(try BackupRecordStream.declaredCount(of: parts[0]) == 0)
        #expect(try BackupRecordStream.joined(parts) == BackupRecordStream.encode([]))
    }

    @Test(arguments: [1, 7, 4096, 1 << 20])
    func aStreamFedInPiecesIsCutIntoWholeRecords(piece: Int) throws {
        let stream = Self.bytes(BackupRecordStream.encode(Self.records))
        let parts = try Self.split(stream, piece: piece, maximumBytes: 16_384)
        #expect(parts.count > 5)
        #expect(parts.allSatisfy { $0.count <= 16_384 })
        #expect(try parts.flatMap { try BackupRecordStream.decode($0) } == Self.records)
    }

    @Test func anEmptyStreamSplitsIntoOneEmptyPart() throws {
        let parts = try Self.split(Self.bytes(BackupRecordStream.encode([])), piece: 3, maximumBytes: 16_384)
        #expect(parts.count == 1)
        #expect(try BackupRecordStream.count(in: parts[0]) == 0)
    }

    @Test func aCutExtendedOrMiscountedStreamIsRefusedWhenItEnds() throws {
        let stream = Self.bytes(BackupRecordStream.encode(Self.records))
        var miscounted = stream
        miscounted[8] &+= 1  // the count's low byte: one record more than the stream holds
        var badFlag = Self.bytes(
            BackupRecordStream.encode([BackupRecord(itemClass: .genericPassword, protection: .afterFirstUnlock, attributes: Data(), secret: nil)]))
        badFlag[badFlag.count - 1] = 7
        for damaged in [Array(stream.dropLast()), stream + [0], miscounted, badFlag, Array("junk-junk".utf8), []] {
            #expect(throws: BackupFormatError.self) { try Self.split(damaged, piece: 1000, maximumBytes: 16_384) }
        }
    }

    @Test(arguments: [0, 1, 1 << 20, (1 << 20) + 1, 3 << 20])
    func aFileSealedPieceByPieceOpensChunkByChunk(length: Int) throws {
        let plaintext = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let secret = BackupSecret.password(SecretBytes(copying: Array("streamed backup".utf8)))
        var file = Data()
        let sealer = try BackupFileSealer(secret: secret, kdf: .insecureForTesting) { file.append(contentsOf: $0) }
        var offset = 0
        while offset < length {
            let end = min(length, offset + 300_007)
            try plaintext[offset..<end].withUnsafeBytes { try sealer.append($0) }
            offset = end
        }
        try sealer.finish()
        #expect(sealer.plaintextCount == length)
        #expect(sealer.fileCount == file.count)
        // The whole-file reader reads what the sealer wrote, and the chunk reader the same bytes.
        #expect(Self.bytes(try BackupFile.open(file, with: secret)) == plaintext)
        let opener = try BackupFileOpener(fileLength: file.count, prefix: file.prefix(BackupHeader.length), secret: secret)
        #expect(opener.plaintextCount == length)
        var opened: [UInt8] = []
        try opener.forEachChunk(read: { file[$0..<$0 + $1] }) { opened += $0 }
        #expect(opened == plaintext)
    }

    @Test func aChunkOpenerRefusesATamperedOrCutFile() throws {
        let secret = BackupSecret.password(SecretBytes(copying: Array("streamed backup".utf8)))
        let file = try BackupFile.seal(SecretBytes(copying: [UInt8](repeating: 9, count: 3 << 20)), with: secret, kdf: .insecureForTesting)
        var tampered = file
        tampered[tampered.count - 100] ^= 1
        let opener = try BackupFileOpener(fileLength: tampered.count, prefix: tampered.prefix(BackupHeader.length), secret: secret)
        var chunks = 0
        #expect(throws: BackupFormatError.damaged("chunk 3 of 3 does not authenticate")) {
            try opener.forEachChunk(read: { tampered[$0..<$0 + $1] }) { _ in chunks += 1 }
        }
        #expect(chunks == 2)
        let cut = file.prefix(file.count - 1)
        #expect(throws: BackupFormatError.self) {
            _ = try BackupFileOpener(fileLength: cut.count, prefix: cut.prefix(BackupHeader.length), secret: secret)
                .forEachChunk(read: { cut[$0..<$0 + $1] }) { _ in }
        }
        #expect(throws: BackupFormatError.wrongSecret(.password)) {
            _ = try BackupFileOpener(
                fileLength: file.count, prefix: file.prefix(BackupHeader.length),
                secret: .password(SecretBytes(copying: Array("another".utf8))))
        }
    }
}
