import Coffer
import CofferTestSupport
import Foundation
import KeychainModel
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// `coffer backup` and `coffer restore` as processes: exit codes and messages, and a restore killed with
/// SIGKILL in the middle of its transaction.
@Suite("coffer backup and restore", .timeLimit(.minutes(10)))
struct KilledRestoreTests {
    static var coffer: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("coffer").path
    }

    static func environment(_ keychain: BackupKeychain, extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["COFFER_HOME"] = keychain.folder.url.path
        environment.removeValue(forKey: "COFFER_SOCKET")
        environment.removeValue(forKey: "COFFER_TEST_RESTORE_PAUSE")
        return environment.merging(extra) { $1 }
    }

    @Test func aRestoreKilledMidTransactionLeavesTheKeychainAsItWas() async throws {
        let source = try BackupKeychain(.embedded)
        try source.seed(mixedItems(20_000, prefix: "big"))
        let file = source.file("big.backup")
        _ = try await source.keychain.backup(to: file, protection: .password(SecretBytes(text: "pw")), kdf: .insecureForTesting)
        let destination = try BackupKeychain(.embedded)
        try destination.seed(mixedItems(5, prefix: "before"))
        let before = try destination.portableItems()
        let pause = source.file("paused")

        let child = try ChildProcess(
            [Self.coffer, "restore", file.path], environment: Self.environment(destination, extra: ["COFFER_TEST_RESTORE_PAUSE": pause.path]),
            input: .pipe)
        _ = child.write(Data("pw\n".utf8))
        child.closeInput()
        let deadline = ContinuousClock.now + .seconds(120)
        while !FileManager.default.fileExists(atPath: pause.path), ContinuousClock.now < deadline, child.isRunning {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(FileManager.default.fileExists(atPath: pause.path), "the restore never reached the middle of its transaction")
        kill(child.pid, SIGKILL)
        let killed = try child.finish(timeout: .seconds(30))
        #expect(killed.termination == ChildProcess.Termination(status: SIGKILL, signalled: true))
        #expect(try destination.portableItems() == before)

        let finished = try ChildProcess.run([Self.coffer, "restore", file.path], input: "pw\n", environment: Self.environment(destination))
        #expect(finished.status == 0, "\(finished.errorText)")
        #expect(
            finished.outputText
                == "restored 20000 items; 0 already present; 0 conflicts (0 kept the keychain's, 0 replaced, 0 kept both, 0 could not be kept both)\n")
        #expect(try destination.rowCount() == 20_005)
    }

    @Test func theCommandsReportWrongPasswordsAndDamage() throws {
        let source = try BackupKeychain(.embedded)
        try source.seed(mixedItems(6) + itemsThatStay())
        let file = source.file("cli.backup")
        let backup = try ChildProcess.run([Self.coffer, "backup", "-o", file.path], input: "backup-pw-1\n", environment: Self.environment(source))
        #expect(backup.status == 0, "\(backup.errorText)")
        #expect(backup.outputText == "")
        #expect(backup.errorText.hasPrefix("backed up 6 items to \(file.path) ("))
        #expect(backup.errorText.hasSuffix("; left on this device: 6 this-device-only, 0 passcode-set-only, 2 non-extractable keys, 0 bound to this device\n"))

        let destination = try BackupKeychain(.embedded)
        let wrong = try ChildProcess.run([Self.coffer, "restore", file.path], input: "nope\n", environment: Self.environment(destination))
        #expect(wrong.status == 2)
        #expect(wrong.errorText == "coffer: wrong backup password\n")

        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 1] ^= 1
        let damaged = source.file("damaged.backup")
        try bytes.write(to: damaged)
        let broken = try ChildProcess.run([Self.coffer, "restore", damaged.path], input: "backup-pw-1\n", environment: Self.environment(destination))
        #expect(broken.status == 3)
        #expect(broken.errorText == "coffer: the backup file is damaged or was modified (chunk 1 of 1 does not authenticate); nothing was restored\n")
        #expect(try destination.rowCount() == 0)

        let restored = try ChildProcess.run(
            [Self.coffer, "restore", file.path, "--policy", "replace"], input: "backup-pw-1\n", environment: Self.environment(destination))
        #expect(restored.status == 0, "\(restored.errorText)")
        #expect(try destination.portableItems() == source.portableItems())

        let recovery = source.file("recovery.backup")
        let withKey = try ChildProcess.run([Self.coffer, "backup", "--recovery-key", "-o", recovery.path], environment: Self.environment(source))
        #expect(withKey.status == 0, "\(withKey.errorText)")
        let printed = withKey.outputText.trimmingCharacters(in: .newlines)
        #expect(printed.count == 69)
        let again = try ChildProcess.run([Self.coffer, "restore", recovery.path], input: printed + "\n", environment: Self.environment(destination))
        #expect(again.status == 0, "\(again.errorText)")
        #expect(again.outputText.hasPrefix("restored 0 items; 6 already present;"))
    }
}
