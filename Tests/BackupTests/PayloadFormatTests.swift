import BackupFormat
import Foundation
import KeychainModel
import Testing

/// The plaintext of a backup with files (format version 2): layout, bounds and paths.
@Suite("Backup payload format", .timeLimit(.minutes(10)))
struct PayloadFormatTests {
    private let items = BackupRecordStream.encode([
        BackupRecord(itemClass: .genericPassword, protection: .whenUnlocked, attributes: Data([1, 2, 3]), secret: Data("s".utf8))
    ])
    private let contents = [Data("first file".utf8), Data(), Data(repeating: 7, count: 70_000)]
    private var entries: [BackupFileEntry] {
        [
            BackupFileEntry(path: "/a/one", protection: .complete, length: contents[0].count),
            BackupFileEntry(path: "/a/two", protection: .completeUnlessOpen, length: 0),
            BackupFileEntry(path: "/b/three four", protection: .none, length: contents[2].count),
        ]
    }

    private func encoded() -> (plaintext: SecretBytes, version: UInt8) {
        BackupPayload.encode(items: items, files: entries) { index, buffer in buffer.copyBytes(from: contents[index]) }
    }

    @Test func filesRoundTripAndItemsStayAStream() throws {
        let (plaintext, version) = encoded()
        #expect(version == BackupHeader.currentVersion)
        let opened = try BackupPayload.decode(plaintext, version: version)
        #expect(opened.items == items)
        #expect(opened.files == entries)
        for index in contents.indices {
            #expect(opened.withContent(ofFile: index) { Data($0) } == contents[index])
        }
    }

    @Test func withoutFilesThePlaintextIsTheItemStream() throws {
        let (plaintext, version) = BackupPayload.encode(items: items, files: []) { _, _ in }
        #expect(version == BackupHeader.itemsOnlyVersion)
        #expect(plaintext == items)
        #expect(try BackupPayload.decode(plaintext, version: version).files.isEmpty)
    }

    @Test func everyTruncationAndTrailingBytesAreRefused() throws {
        let bytes = encoded().plaintext.withUnsafeBytes { Array($0) }
        for length in stride(from: 0, to: bytes.count, by: 97) {
            #expect(throws: BackupFormatError.self) {
                try BackupPayload.decode(SecretBytes(copying: bytes.prefix(length)), version: BackupHeader.currentVersion)
            }
        }
        #expect(throws: BackupFormatError.self) {
            try BackupPayload.decode(SecretBytes(copying: bytes + [0]), version: BackupHeader.currentVersion)
        }
        #expect(throws: BackupFormatError.unsupportedVersion(3)) {
            try BackupPayload.decode(SecretBytes(copying: bytes), version: 3)
        }
    }

    @Test func onlyPlainAbsolutePathsAreAccepted() {
        #expect(BackupFileEntry.isAcceptable(path: "/home/a/notes (1).txt"))
        for path in ["", "/", "relative/file", "/a/../etc/passwd", "/a/./b", "/a\u{0}b", "/" + String(repeating: "x", count: 4096)] {
            #expect(!BackupFileEntry.isAcceptable(path: path), "\(path.prefix(20))")
        }
    }

    @Test func aNewerVersionIsRefusedByItsHeader() throws {
        var file = try BackupFile.seal(items, with: .recoveryKey(RecoveryKey.generate()))
        file[4] = 3
        #expect(throws: BackupFormatError.unsupportedVersion(3)) { try BackupFile.header(of: file) }
    }
}
