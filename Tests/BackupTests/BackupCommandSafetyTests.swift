import CofferTestSupport
import Foundation
import Testing
import TestProcesses

/// `coffer backup` refuses a password anyone could guess offline unless told it is meant, never an empty one, and
/// never replaces an existing file without `--force`.
@Suite("coffer backup: passwords and existing files", .timeLimit(.minutes(10)))
struct BackupCommandSafetyTests {
    private static func run(_ arguments: [String], input: String = "", in keychain: BackupKeychain) throws -> ChildProcess.Outcome {
        try ChildProcess.run([KilledRestoreTests.coffer] + arguments, input: input, environment: KilledRestoreTests.environment(keychain))
    }

    @Test func aShortPasswordNeedsToBeAllowedAndAnEmptyOneIsRefused() throws {
        let source = try BackupKeychain(.embedded)
        try source.seed(mixedItems(2))
        let file = source.file("short.backup")
        let short = try Self.run(["backup", "-o", file.path], input: "pw\n", in: source)
        #expect(short.status == 1)
        #expect(short.errorText.contains("the backup password has 2 characters; anyone with the file can guess a password shorter than 8 characters offline"))
        #expect(short.errorText.contains("--allow-weak-passphrase"))
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let empty = try Self.run(["backup", "-o", file.path, "--allow-weak-passphrase"], input: "\n", in: source)
        #expect(empty.status == 1)
        #expect(empty.errorText.contains("an empty backup password protects nothing"))
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let allowed = try Self.run(["backup", "-o", file.path, "--allow-weak-passphrase"], input: "pw\n", in: source)
        #expect(allowed.status == 0, "\(allowed.errorText)")
        #expect(FileManager.default.fileExists(atPath: file.path))
    }

    @Test func anExistingBackupIsReplacedOnlyWithForce() throws {
        let source = try BackupKeychain(.embedded)
        try source.seed(mixedItems(2))
        let file = source.file("kept.backup")
        #expect(try Self.run(["backup", "-o", file.path], input: "first-password\n", in: source).status == 0)
        let before = try Data(contentsOf: file)
        let again = try Self.run(["backup", "-o", file.path], input: "second-password\n", in: source)
        #expect(again.status == 1)
        #expect(again.errorText == "coffer: backup: \(file.path) already exists; nothing was written (use --force to replace it)\n")
        #expect(try Data(contentsOf: file) == before)
        #expect(try Self.run(["backup", "-o", file.path, "--force"], input: "second-password\n", in: source).status == 0)
        let destination = try BackupKeychain(.embedded)
        #expect(try Self.run(["restore", file.path], input: "second-password\n", in: destination).status == 0)
    }
}
