import Foundation
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// A keychain folder its owner cannot write (`chmod -R a-w`) is read, never written: finds answer, every
/// change fails with `errSecReadOnly` (-25292), and nothing in the folder changes. Root ignores
/// permissions, so `coffer` runs as a throwaway user; the tests need root to become that user.
@Suite("Read-only keychain folder", .enabled(if: getuid() == 0, "needs root to make a folder another user cannot write"), .serialized, .timeLimit(.minutes(10)))
struct ReadOnlyKeychainTests {
    @Test func readOnlyFolderWithoutWriteAheadLogIsReadable() throws {
        let keychain = try ReadOnlyKeychain()
        defer { keychain.remove() }
        try keychain.create()
        try keychain.checkpointRemovingLogFiles()
        #expect(!keychain.exists("items.sqlite-wal") && !keychain.exists("items.sqlite-shm"))
        try keychain.checkReadOnlyBehaviour()
    }

    @Test func readOnlyFolderWithWriteAheadLogIsReadable() throws {
        let keychain = try ReadOnlyKeychain()
        defer { keychain.remove() }
        try keychain.create()
        #expect(keychain.exists("items.sqlite-wal") && keychain.exists("items.sqlite-shm"))
        try keychain.checkReadOnlyBehaviour()
    }

    /// Unlocking must count the attempt in the keybag before the KDF; a read-only keybag cannot hold the
    /// count, so the attempt is refused rather than left uncounted, and the keybag stays as it was.
    @Test func unlockingReadOnlyKeychainIsRefusedWithoutCounting() throws {
        let keychain = try ReadOnlyKeychain()
        defer { keychain.remove() }
        try keychain.create()
        #expect(try keychain.run(["passcode", "set"], input: "right-code\n").status == 0)
        keychain.makeReadOnly()
        let before = try keychain.snapshot()
        for passcode in ["wrong-code", "right-code"] {
            let unlock = try keychain.run(["unlock"], input: "\(passcode)\n")
            #expect(unlock.status != 0)
            #expect(unlock.standardError.contains("cannot be modified"), "\(unlock.standardError)")
            #expect(!unlock.standardError.contains(passcode))
        }
        let status = try keychain.run(["status"])
        #expect(status.status == 0, "\(status.standardError)")
        #expect(status.standardOutput.contains("failed attempts: 0"), "\(status.standardOutput)")
        #expect(try keychain.snapshot() == before)
    }
}

/// One keychain folder of a throwaway user, driven through the built `coffer` as that user.
private struct ReadOnlyKeychain {
    static let user = "coffer-test-alice"
    let root: URL
    let folder: URL
    let uid: uid_t
    let gid: gid_t

    init() throws {
        if MultiUserCommand.run(["/usr/bin/getent", "passwd", Self.user]).status != 0 {
            let added = MultiUserCommand.run(["/usr/sbin/useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", Self.user])
            try #require(added.status == 0)
        }
        let account = try #require(getpwnam(Self.user))
        uid = account.pointee.pw_uid
        gid = account.pointee.pw_gid
        root = URL(fileURLWithPath: "/tmp/coffer-readonly-\(UUID().uuidString.prefix(8))")
        folder = root.appendingPathComponent("keychain")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        chown(root.path, uid, gid)
    }

    /// Makes the folder writable again (so that root's cleanup is not in the way) and deletes it.
    func remove() {
        _ = MultiUserCommand.run(["/bin/chmod", "-R", "u+w", root.path])
        try? FileManager.default.removeItem(at: root)
    }

    /// Creates the keychain with one item, `demo`/`me`, as the user.
    func create() throws {
        let added = try run(["add-generic-password", "-s", "demo", "-a", "me", "-w"], input: "the-secret\n")
        try #require(added.status == 0, "\(added.standardError)")
    }

    /// Moves the write-ahead log into the database and closes it, so that `-wal` and `-shm` are gone
    /// (SQLite deletes them when the last connection closes after a checkpoint).
    func checkpointRemovingLogFiles() throws {
        let database = folder.appendingPathComponent("items.sqlite").path
        let result = MultiUserCommand.run(
            ["/usr/bin/python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); c.close()", database])
        try #require(result.status == 0, "\(result.output)")
    }

    /// `chmod -R a-w` on the folder.
    func makeReadOnly() {
        _ = MultiUserCommand.run(["/bin/chmod", "-R", "a-w", folder.path])
    }

    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path)
    }

    /// Makes the folder read-only, then: the find answers the secret; adds and deletes fail with
    /// `errSecReadOnly` and a reason naming the folder; the item is still there; nothing in the folder changed.
    func checkReadOnlyBehaviour() throws {
        makeReadOnly()
        let before = try snapshot()
        let find = try run(["find-generic-password", "-s", "demo", "-a", "me", "-w"])
        #expect(find.status == 0, "\(find.standardError)")
        #expect(find.standardOutput == "the-secret\n")
        let changes: [([String], String)] = [
            (["add-generic-password", "-s", "other", "-a", "me", "-w"], "new-secret\n"),
            (["add-generic-password", "-s", "demo", "-a", "me", "-U", "-w"], "replaced\n"),
            (["delete-generic-password", "-s", "demo", "-a", "me"], ""),
        ]
        for (arguments, input) in changes {
            let outcome = try run(arguments, input: input)
            #expect(outcome.status != 0, "\(arguments)")
            #expect(outcome.standardError.contains("errSecReadOnly (-25292)"), "\(arguments): \(outcome.standardError)")
            #expect(outcome.standardError.contains("the keychain folder \(folder.path) is read-only"), "\(outcome.standardError)")
            #expect(!outcome.standardError.contains("errSecIO"))
            #expect(!outcome.standardError.contains(input.dropLast()) || input.isEmpty)
        }
        let again = try run(["find-generic-password", "-s", "demo", "-a", "me", "-w"])
        #expect(again.standardOutput == "the-secret\n")
        let other = try run(["find-generic-password", "-s", "other", "-a", "me", "-w"])
        #expect(other.status != 0)
        #expect(try snapshot() == before)
    }

    /// The folder's entries with their sizes, modes and modification times, and the folder's own.
    func snapshot() throws -> [String] {
        var lines: [String] = []
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        for name in ["."] + names {
            var status = stat()
            #expect(lstat(folder.appendingPathComponent(name).path, &status) == 0)
            lines.append("\(name) \(status.st_size) \(String(status.st_mode, radix: 8)) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)")
        }
        return lines
    }

    /// Runs `coffer arguments…` as the user, with `COFFER_HOME` set to the folder and `input` on standard input.
    func run(_ arguments: [String], input: String = "") throws -> MultiUserCommand.Outcome {
        let command =
            [
                "/usr/bin/setpriv", "--reuid", String(uid), "--regid", String(gid), "--clear-groups", "--",
                "/usr/bin/env", "COFFER_HOME=\(folder.path)", (try? SharedExecutables.path("coffer")) ?? CLIRunner.executable.path,
            ] + arguments
        return MultiUserCommand.run(command, input: input)
    }
}

/// Runs a helper command and collects its exit status and output.
enum MultiUserCommand {
    /// What a command did.
    struct Outcome {
        let status: Int32
        let standardOutput: String
        let standardError: String
        var output: String { standardOutput + standardError }
    }

    /// Runs `arguments` with `input` on standard input (-1 and the reason when it cannot be run or finish).
    static func run(_ arguments: [String], input: String = "") -> Outcome {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "COFFER_LOG")
        environment.removeValue(forKey: "COFFER_SOCKET")
        do {
            let finished = try ChildProcess.run(arguments, input: input, environment: environment)
            return Outcome(status: finished.status, standardOutput: finished.outputText, standardError: finished.errorText)
        } catch {
            return Outcome(status: -1, standardOutput: "", standardError: "\(arguments[0]): \(error)")
        }
    }
}
