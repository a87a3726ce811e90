import Foundation
import KeychainModel
import Keystore
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// Key and database files another user could have written are refused, as ssh's StrictModes does.
@Suite("Keychain folder and file permissions", .timeLimit(.minutes(10)))
struct StrictModesTests {
    private static func unavailableReason(_ body: () throws(KeystoreError) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            guard case .unavailable(let reason) = error else { return "unexpected \(error)" }
            #expect(error.status == .notAvailable)
            return reason
        }
    }

    private static func mode(_ path: String) -> mode_t {
        var status = stat()
        stat(path, &status)
        return status.st_mode & 0o7777
    }

    @Test func aGroupWritableKeyFileIsRefused() throws {
        let folder = makeTemporaryFolder()
        _ = try Keystore.open(folder: folder)
        chmod(folder.keybagURL.path, 0o620)
        let reason = try #require(Self.unavailableReason { () throws(KeystoreError) in _ = try Keystore.open(folder: folder) })
        #expect(reason.contains(folder.keybagURL.path))
        #expect(reason.contains("writable by group or others (mode 620)"))
        chmod(folder.keybagURL.path, 0o600)
        chmod(folder.deviceKeyURL.path, 0o606)
        #expect(Self.unavailableReason { () throws(KeystoreError) in _ = try Keystore.open(folder: folder) }?.contains("device.key") == true)
    }

    @Test func aSymlinkedKeybagIsRefused() throws {
        let folder = makeTemporaryFolder()
        _ = try Keystore.open(folder: folder)
        let elsewhere = folder.url.deletingLastPathComponent().appendingPathComponent("keybag-elsewhere").path
        #expect(rename(folder.keybagURL.path, elsewhere) == 0)
        #expect(symlink(elsewhere, folder.keybagURL.path) == 0)
        let reason = try #require(Self.unavailableReason { () throws(KeystoreError) in _ = try Keystore.open(folder: folder) })
        #expect(reason.contains("is a symbolic link"))
        // Read directly, the key file is not followed either.
        #expect(throws: KeystoreError.self) { _ = try SecureFile.read(folder.keybagURL, limit: 1 << 20) }
    }

    @Test func aWorldWritableFolderIsRefusedAndModesAreChangedOnlyWhenWrong() throws {
        let folder = makeTemporaryFolder()
        _ = try Keystore.open(folder: folder)
        chmod(folder.url.path, 0o777)
        let reason = try #require(Self.unavailableReason { () throws(KeystoreError) in _ = try Keystore.open(folder: folder) })
        #expect(reason.contains("the keychain folder \(folder.url.path) is writable by group or others (mode 777)"))
        // Readable by others only: tightened, since no one else could have written.
        chmod(folder.url.path, 0o755)
        chmod(folder.keybagURL.path, 0o644)
        _ = try Keystore.open(folder: folder)
        #expect(Self.mode(folder.url.path) == 0o700)
        #expect(Self.mode(folder.keybagURL.path) == 0o600)
        // Right modes are not rewritten: the status-change time stays as it was.
        var before = stat(), after = stat()
        stat(folder.url.path, &before)
        usleep(20_000)
        _ = try Keystore.open(folder: folder)
        stat(folder.url.path, &after)
        #expect(before.st_ctim.tv_sec == after.st_ctim.tv_sec && before.st_ctim.tv_nsec == after.st_ctim.tv_nsec)
    }

    /// Another user plants a device key and keybag in a folder that was world-writable when the keychain
    /// was first used; even after the folder is made private, the planted files are refused.
    @Test(.enabled(if: getuid() == 0, "needs root to plant files as another user")) func keyFilesPlantedByAnotherUserAreRefused() throws {
        let intruder = "coffer-test-bob"
        if MultiUser.run(["/usr/bin/getent", "passwd", intruder]) != 0 {
            try #require(MultiUser.run(["/usr/sbin/useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", intruder]) == 0)
        }
        let account = try #require(getpwnam(intruder))
        let root = URL(fileURLWithPath: "/tmp/coffer-plant-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let folder = KeychainFolder(url: root.appendingPathComponent("keychain"))
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
        chmod(folder.url.path, 0o777)
        // The intruder writes a key file of their own choosing into the world-writable folder.
        let planted = MultiUser.run([
            "/usr/bin/setpriv", "--reuid", String(account.pointee.pw_uid), "--regid", String(account.pointee.pw_gid), "--clear-groups",
            "--", "/bin/sh", "-c", "umask 077; printf 'CFDK-planted' > '\(folder.deviceKeyURL.path)'",
        ])
        try #require(planted == 0)
        let open = try #require(Self.unavailableReason { () throws(KeystoreError) in _ = try Keystore.open(folder: folder) })
        #expect(open.contains("writable by group or others"))
        chmod(folder.url.path, 0o700)
        let afterFix = try #require(Self.unavailableReason { () throws(KeystoreError) in _ = try Keystore.open(folder: folder) })
        #expect(afterFix.contains("device.key is owned by uid \(account.pointee.pw_uid), not by this user"))
    }
}

/// Running helper commands for the multi-user test.
enum MultiUser {
    /// Runs `arguments` and returns the exit status (-1 when it cannot be run or does not finish).
    static func run(_ arguments: [String]) -> Int32 {
        (try? ChildProcess.run(arguments))?.status ?? -1
    }
}
