import BackupFormat
import Coffer
import CofferTestSupport
import Foundation
import KeychainModel
import Testing

/// A backup file is authenticated as a whole: every single-byte change and every truncation is refused before
/// anything is written.
@Suite("Backup integrity", .timeLimit(.minutes(10)))
struct IntegrityTests {
    @Test(arguments: Transport.allCases)
    func everySingleByteFlipIsDetectedAndNothingIsWritten(transport: Transport) async throws {
        let source = try BackupKeychain(transport)
        try source.seed(mixedItems(4))
        let file = source.file("backup")
        let key = RecoveryKey.generate()
        _ = try await source.keychain.backup(to: file, protection: .recoveryKey(key))
        let original = try Data(contentsOf: file)
        let destination = try BackupKeychain(transport)
        let damaged = source.file("damaged")
        let kinds = try await destination.restoreEveryByteFlip(of: original, key: key, damaged: damaged) { error, offset in
            #expect(error.kind != .keychain && error.kind != .file, "byte \(offset): \(error)")
        }
        // The magic's four bytes make it no backup, the version byte one of another format; every other byte is
        // damage (the header's checksum catches any single byte of the header, the chunks' tags the rest).
        #expect(kinds == [.notABackup: 5, .damaged: original.count - 5])
        #expect(try destination.rowCount() == 0)
        let report = try await destination.keychain.restore(from: file, protection: .recoveryKey(key))
        #expect(report.added == 4)
    }

    @Test(arguments: Transport.allCases)
    func everyTruncationIsDetected(transport: Transport) async throws {
        let source = try BackupKeychain(transport)
        try source.seed(mixedItems(4))
        let file = source.file("backup")
        let password = SecretBytes(text: "pw")
        _ = try await source.keychain.backup(to: file, protection: .password(password), kdf: .insecureForTesting)
        let original = try Data(contentsOf: file)
        let destination = try BackupKeychain(transport)
        let cut = source.file("cut")
        for length in 0..<original.count {
            try original.prefix(length).write(to: cut)
            do {
                _ = try await destination.keychain.restore(from: cut, protection: .password(password))
                Issue.record("a file cut to \(length) of \(original.count) bytes was restored")
            } catch {
                #expect(error.kind == (length < 4 ? .notABackup : .damaged), "length \(length): \(error)")
            }
        }
        #expect(try destination.rowCount() == 0)
    }

    @Test func aLargeBackupCutAtAChunkBoundaryIsDetected() throws {
        let plaintext = SecretBytes(copying: [UInt8](repeating: 7, count: 3 << 20))
        let key = RecoveryKey.generate()
        let file = try BackupFile.seal(plaintext, with: .recoveryKey(key))
        let chunk = (1 << 20) + 28
        #expect(file.count == BackupHeader.length + 3 * chunk)
        #expect(try BackupFile.open(file, with: .recoveryKey(key)) == plaintext)
        #expect(throws: BackupFormatError.damaged("chunk 2 of 2 does not authenticate")) {
            try BackupFile.open(file.prefix(BackupHeader.length + 2 * chunk), with: .recoveryKey(key))
        }
        var reordered = file
        let first = file[BackupHeader.length..<BackupHeader.length + chunk]
        let second = file[BackupHeader.length + chunk..<BackupHeader.length + 2 * chunk]
        reordered.replaceSubrange(BackupHeader.length..<BackupHeader.length + 2 * chunk, with: second + first)
        #expect(throws: BackupFormatError.damaged("chunk 1 of 3 does not authenticate")) {
            try BackupFile.open(reordered, with: .recoveryKey(key))
        }
    }
}
