import BackupFormat
import Coffer
import CofferTestSupport
import Foundation
import KeychainModel
import Testing

/// Protected files in backups: each class round trips onto another keychain, conflicts follow the policy, a
/// file that is not protected is refused by name, and backups without files still restore.
@Suite("Backups of protected files", .timeLimit(.minutes(10)))
struct FileBackupTests {
    static let password = SecretBytes(text: "pw")

    /// One file of each class: `complete` spans backup chunks and file chunks (1.5 MiB and 17 bytes), the
    /// `completeUnlessOpen` one is empty.
    static let files: [(name: String, protection: FileProtectionType, content: Data)] = [
        ("docs/big.bin", .complete, Data((0..<(3 << 19) + 17).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 11)) })),
        ("docs/empty", .completeUnlessOpen, Data()),
        ("notes.txt", .completeUntilFirstUserAuthentication, Data("file-secret-notes".utf8)),
        ("other/plain.cfg", FileProtectionType.none, Data("file-secret-none".utf8)),
    ]

    /// The source's files, written as protected files in its folder.
    private func writeFiles(_ source: BackupKeychain) async throws -> [URL] {
        var urls: [URL] = []
        for file in Self.files {
            let url = source.file("files/" + file.name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try await ProtectedFile.write(file.content, to: url, protection: file.protection, keychain: source.keychain)
            urls.append(url)
        }
        return urls
    }

    @Test(arguments: Transport.allCases)
    func filesOfEveryClassRoundTripOntoAnotherKeychain(transport: Transport) async throws {
        let source = try BackupKeychain(transport)
        try source.seed(mixedItems(4))
        let urls = try await writeFiles(source)
        let backup = source.file("with-files.backup")
        let stages = StageLog()
        let summary = try await source.keychain.backup(
            to: backup, protection: .password(Self.password), kdf: .insecureForTesting, files: urls, progress: stages.record)
        #expect(summary.itemCount == 4)
        #expect(summary.files == urls.map(\.path))
        #expect(summary.fileContentSize == Self.files.reduce(0) { $0 + $1.content.count })
        #expect(stages.contains(.protectedFile(path: urls[0].path, done: Self.files[0].content.count, total: Self.files[0].content.count)))
        let bytes = try Data(contentsOf: backup)
        #expect(bytes[4] == BackupHeader.currentVersion)
        #expect(bytes.range(of: Data("file-secret".utf8)) == nil)
        #expect(bytes.range(of: Data(urls[2].path.utf8)) == nil)

        // Another keychain (another device key): the files restore under a folder, each of its class.
        let destination = try BackupKeychain(transport)
        let target = destination.file("restored")
        let report = try await destination.keychain.restore(from: backup, protection: .password(Self.password), filesTo: target)
        #expect(report.items == RestoreReport(added: 4))
        #expect(report.files.map(\.outcome) == Array(repeating: .restored, count: 4))
        for (index, file) in Self.files.enumerated() {
            let restored = report.files[index]
            #expect(restored.path == urls[index].path)
            #expect(restored.destination == target.path + urls[index].path)
            #expect(restored.protection.rawValue == file.protection.rawValue)
            let url = URL(fileURLWithPath: restored.destination)
            #expect(try await ProtectedFile.read(contentsOf: url, keychain: destination.keychain) == file.content)
            #expect(try ProtectedFile.protection(of: url).rawValue == file.protection.rawValue)
            #expect((try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) == 0o600)
            // Not with the old key material: the file's key is wrapped under the new keychain's class keys.
            await #expect(throws: ProtectedFileError.self) { try await ProtectedFile.read(contentsOf: url, keychain: source.keychain) }
        }

        // At their original paths once the originals are gone.
        for url in urls { try FileManager.default.removeItem(at: url) }
        let atOrigin = try await destination.keychain.restore(from: backup, protection: .password(Self.password))
        #expect(atOrigin.identical == 4)
        #expect(atOrigin.files.map(\.destination) == urls.map(\.path))
        for (index, url) in urls.enumerated() {
            #expect(try await ProtectedFile.read(contentsOf: url, keychain: destination.keychain) == Self.files[index].content)
        }
    }

    @Test(arguments: Transport.allCases)
    func aFolderTakesItsProtectedFilesOnly(transport: Transport) async throws {
        let source = try BackupKeychain(transport)
        let urls = try await writeFiles(source)
        try Data("not protected".utf8).write(to: source.file("files/docs/readme"))
        let backup = source.file("folder.backup")
        let summary = try await source.keychain.backup(
            to: backup, protection: .password(Self.password), kdf: .insecureForTesting, files: [source.file("files"), urls[2]])
        #expect(summary.files == urls.map(\.path).sorted())
    }

    @Test(arguments: RestorePolicy.allCases)
    func conflictsFollowThePolicy(policy: RestorePolicy) async throws {
        let source = try BackupKeychain(.embedded)
        let url = source.file("conflict.txt")
        try await ProtectedFile.write(Data("from the backup".utf8), to: url, protection: .complete, keychain: source.keychain)
        let backup = source.file("conflict.backup")
        _ = try await source.keychain.backup(to: backup, protection: .password(Self.password), kdf: .insecureForTesting, files: [url])
        let destination = try BackupKeychain(.embedded)
        let target = destination.file("t")
        let existing = URL(fileURLWithPath: target.path + url.path)
        try FileManager.default.createDirectory(at: existing.deletingLastPathComponent(), withIntermediateDirectories: true)
        try await ProtectedFile.write(Data("mine".utf8), to: existing, protection: .none, keychain: destination.keychain)

        let report = try await destination.keychain.restore(from: backup, protection: .password(Self.password), policy: policy, filesTo: target)
        let mine = try await ProtectedFile.read(contentsOf: existing, keychain: destination.keychain)
        let beside = existing.deletingLastPathComponent().appendingPathComponent("conflict (restored).txt")
        switch policy {
        case .keep:
            #expect(report.files.map(\.outcome) == [.keptExisting])
            #expect(mine == Data("mine".utf8))
        case .replace:
            #expect(report.files.map(\.outcome) == [.replaced])
            #expect(mine == Data("from the backup".utf8))
            #expect(try ProtectedFile.protection(of: existing) == .complete)
        case .both:
            #expect(report.files.map(\.outcome) == [.keptBoth])
            #expect(report.files.map(\.destination) == [beside.path])
            #expect(mine == Data("mine".utf8))
            #expect(try await ProtectedFile.read(contentsOf: beside, keychain: destination.keychain) == Data("from the backup".utf8))
            let again = try await destination.keychain.restore(from: backup, protection: .password(Self.password), policy: .both, filesTo: target)
            #expect(again.files.map(\.destination) == [beside.deletingLastPathComponent().appendingPathComponent("conflict (restored 2).txt").path])
        }
    }

    @Test(arguments: Transport.allCases)
    func aFileThatIsNotProtectedOrMissingIsRefusedByName(transport: Transport) async throws {
        let source = try BackupKeychain(transport)
        let plain = source.file("plain.txt")
        try Data("just text".utf8).write(to: plain)
        let backup = source.file("refused.backup")
        do {
            _ = try await source.keychain.backup(to: backup, protection: .password(Self.password), kdf: .insecureForTesting, files: [plain])
            Issue.record("a plain file was backed up")
        } catch {
            #expect(error.kind == .file)
            #expect(error.message.hasPrefix("\(plain.path): not a protected file"))
        }
        let missing = source.file("missing")
        do {
            _ = try await source.keychain.backup(to: backup, protection: .password(Self.password), kdf: .insecureForTesting, files: [missing])
            Issue.record("a missing file was backed up")
        } catch {
            #expect(error.kind == .file)
            #expect(error.message.hasPrefix("\(missing.path): "))
        }
        #expect(!FileManager.default.fileExists(atPath: backup.path))
    }

    @Test(arguments: Transport.allCases)
    func everySingleByteFlipOfABackupWithFilesIsDetected(transport: Transport) async throws {
        let source = try BackupKeychain(transport)
        try source.seed(mixedItems(2))
        let url = source.file("flip.txt")
        try await ProtectedFile.write(Data("file-secret-flip".utf8), to: url, protection: .complete, keychain: source.keychain)
        let backup = source.file("flip.backup")
        let key = RecoveryKey.generate()
        _ = try await source.keychain.backup(to: backup, protection: .recoveryKey(key), files: [url])
        let original = try Data(contentsOf: backup)
        let destination = try BackupKeychain(transport)
        let target = destination.file("t")
        let damaged = source.file("damaged")
        let kinds = try await destination.restoreEveryByteFlip(of: original, key: key, damaged: damaged, filesTo: target)
        #expect(kinds == [.notABackup: 5, .damaged: original.count - 5])
        #expect(try destination.rowCount() == 0)
        #expect(!FileManager.default.fileExists(atPath: target.path))
        let report = try await destination.keychain.restore(from: backup, protection: .recoveryKey(key), filesTo: target)
        #expect(report.added == 2)
        #expect(report.files.count == 1)
    }

    @Test(arguments: Transport.allCases)
    func aBackupWithoutFilesIsVersionOneAndStillRestores(transport: Transport) async throws {
        let source = try BackupKeychain(transport)
        try source.seed(mixedItems(4))
        let backup = source.file("items.backup")
        _ = try await source.keychain.backup(to: backup, protection: .password(Self.password), kdf: .insecureForTesting)
        #expect(try Data(contentsOf: backup)[4] == BackupHeader.itemsOnlyVersion)
        // A version 1 file sealed directly, as earlier builds wrote them.
        let key = RecoveryKey.generate()
        let old = source.file("old.backup")
        let records = BackupRecordStream.encode(try source.portableItems())
        try BackupFile.seal(records, with: .recoveryKey(key)).write(to: old)
        let destination = try BackupKeychain(transport)
        let report = try await destination.keychain.restore(from: old, protection: .recoveryKey(key))
        #expect(report.items == RestoreReport(added: 4))
        #expect(report.files.isEmpty)
        #expect(try destination.portableItems() == source.portableItems())
    }
}

/// The stages a backup reported, kept for the test to inspect.
final class StageLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stages: [BackupStage] = []

    func record(_ stage: BackupStage) { lock.withLock { stages.append(stage) } }

    func contains(_ stage: BackupStage) -> Bool { lock.withLock { stages.contains(stage) } }
}
