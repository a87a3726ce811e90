import Coffer
import CofferTestSupport
import Foundation
import KeychainModel
import Testing
import TestProcesses

/// `coffer backup --file` and `coffer restore --files-to` as processes: what they print, and refusals by name.
@Suite("coffer backup --file", .timeLimit(.minutes(10)))
struct FileBackupCommandTests {
    private static func run(_ arguments: [String], input: String = "", in keychain: BackupKeychain) throws -> ChildProcess.Outcome {
        try ChildProcess.run([KilledRestoreTests.coffer] + arguments, input: input, environment: KilledRestoreTests.environment(keychain))
    }

    @Test func filesAreBackedUpAndRestoredWithTheirClasses() async throws {
        let source = try BackupKeychain(.embedded)
        try source.seed(mixedItems(2))
        let a = source.file("a.txt")
        let b = source.file("sub/b.bin")
        try FileManager.default.createDirectory(at: b.deletingLastPathComponent(), withIntermediateDirectories: true)
        try await ProtectedFile.write(Data("alpha".utf8), to: a, protection: .complete, keychain: source.keychain)
        try await ProtectedFile.write(Data(repeating: 9, count: 200_000), to: b, protection: .none, keychain: source.keychain)
        let backup = source.file("cli-files.backup")

        let made = try Self.run(["backup", "-o", backup.path, "--file", a.path, "--file", b.path], input: "backup-pw-1\n", in: source)
        #expect(made.status == 0, "\(made.errorText)")
        #expect(made.errorText.hasPrefix("backed up 2 items and 2 protected files (200005 bytes of content) to \(backup.path) ("))
        #expect(made.errorText.hasSuffix(")\nfile: \(a.path)\nfile: \(b.path)\n"))

        let destination = try BackupKeychain(.embedded)
        let target = destination.file("t")
        let restored = try Self.run(["restore", backup.path, "--files-to", target.path], input: "backup-pw-1\n", in: destination)
        #expect(restored.status == 0, "\(restored.errorText)")
        #expect(
            restored.outputText == """
                restored 2 items; 0 already present; 0 conflicts (0 kept the keychain's, 0 replaced, 0 kept both, 0 could not be kept both)
                restored 2 of 2 files; 0 conflicts (0 kept the existing file, 0 replaced, 0 kept both)
                file: \(a.path): restored as complete (NSFileProtectionComplete, class A) at \(target.path + a.path)
                file: \(b.path): restored as none (NSFileProtectionNone, class D) at \(target.path + b.path)

                """)
        let cat = try Self.run(["file", "cat", target.path + a.path], in: destination)
        #expect(cat.outputText == "alpha")

        let both = try Self.run(["restore", backup.path, "--files-to", target.path, "--policy", "both"], input: "backup-pw-1\n", in: destination)
        #expect(both.status == 0, "\(both.errorText)")
        #expect(both.outputText.contains("restored 2 of 2 files; 2 conflicts (0 kept the existing file, 0 replaced, 2 kept both)\n"))
        #expect(
            both.outputText.contains(
                "file: \(a.path): kept both: restored as complete (NSFileProtectionComplete, class A) at \(target.path + a.path.dropLast(4)) (restored).txt\n"))
        let keep = try Self.run(["restore", backup.path, "--files-to", target.path], input: "backup-pw-1\n", in: destination)
        #expect(keep.outputText.hasSuffix("file: \(b.path): kept the existing file at \(target.path + b.path)\n"))
    }

    @Test func aPlainFileOrALockedClassIsRefusedByName() async throws {
        let source = try BackupKeychain(.embedded)
        let plain = source.file("plain.txt")
        try Data("plain".utf8).write(to: plain)
        let backup = source.file("refused.backup")
        let refused = try Self.run(["backup", "-o", backup.path, "--file", plain.path], input: "backup-pw-1\n", in: source)
        #expect(refused.status == 1)
        #expect(refused.errorText.hasPrefix("coffer: \(plain.path): not a protected file, or a damaged one ("))
        #expect(!FileManager.default.fileExists(atPath: backup.path))

        let a = source.file("a.txt")
        try await ProtectedFile.write(Data("alpha".utf8), to: a, protection: .complete, keychain: source.keychain)
        #expect(try Self.run(["passcode", "set"], input: "file-code\n", in: source).status == 0)
        // Each command is a new process: the keychain starts locked, so the complete file cannot be read.
        let locked = try Self.run(["backup", "-o", backup.path, "--file", a.path], input: "file-code\nbackup-pw-1\n", in: source)
        #expect(locked.status == 1)
        #expect(
            locked.errorText.hasPrefix(
                "coffer: \(a.path): cannot back up the file: the file is protected with NSFileProtectionComplete, whose class key is not available while the keychain is locked"
            ))
        #expect(!FileManager.default.fileExists(atPath: backup.path))
    }

    @Test func aLockedDestinationRefusesACompleteFileBeforeWritingAnything() async throws {
        let source = try BackupKeychain(.embedded)
        try source.seed(mixedItems(2))
        let a = source.file("a.txt")
        try await ProtectedFile.write(Data("alpha".utf8), to: a, protection: .complete, keychain: source.keychain)
        let backup = source.file("locked.backup")
        #expect(try Self.run(["backup", "-o", backup.path, "--file", a.path], input: "backup-pw-1\n", in: source).status == 0)

        let destination = try BackupKeychain(.embedded)
        #expect(try Self.run(["passcode", "set"], input: "file-code\n", in: destination).status == 0)
        let target = destination.file("t")
        // A new process: the destination starts locked, so no key of class A can be made for the file.
        let refused = try Self.run(["restore", backup.path, "--files-to", target.path], input: "backup-pw-1\n", in: destination)
        #expect(refused.status == 1)
        #expect(
            refused.errorText.hasPrefix(
                "coffer: \(target.path + a.path): cannot restore the file: the file is protected with NSFileProtectionComplete, whose class key is not available while the keychain is locked"
            ))
        #expect(refused.errorText.hasSuffix("; nothing was restored\n"))
        #expect(try destination.rowCount() == 0)
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }
}
