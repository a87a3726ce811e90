import CofferRuntime
import Foundation
import KeychainSelection
import KeychainModel
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// One keychain per user behaves as one: in a login session `coffer` starts `cofferd --user` for a keychain
/// with a passcode, so an unlock lasts across commands; every program finds that daemon without
/// `COFFER_SOCKET`; the daemon stops at logout (its runtime folder removed). Outside a session the
/// unlock lasts one command, and the command says so.
@Suite("a per-user daemon for the login session", .timeLimit(.minutes(10)))
struct SessionDaemonTests {
    /// A keychain folder and a runtime folder (0700, as pam_systemd makes `XDG_RUNTIME_DIR`); removing the
    /// runtime folder at the end stops any daemon started for it.
    final class Session {
        let cli: CLIRunner
        let runtime: URL

        init(cli: CLIRunner = CLIRunner()) throws {
            self.cli = cli
            runtime = cli.home.deletingLastPathComponent().appendingPathComponent("run")
            try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }

        var environment: [String: String] { ["XDG_RUNTIME_DIR": runtime.path] }

        func run(_ arguments: [String], input: String = "") throws -> CLIRunner.Outcome {
            try cli.run(arguments, input: input, environment: environment)
        }

        /// Where the daemon for this keychain listens.
        var socket: String {
            PerUserDaemon.socketPath(for: KeychainFolder(url: cli.home), environment: ["COFFER_HOME": cli.home.path, "XDG_RUNTIME_DIR": runtime.path])
        }

        deinit { try? FileManager.default.removeItem(at: cli.home.deletingLastPathComponent()) }
    }

    @Test(.timeLimit(.minutes(2))) func anUnlockLastsAcrossCommandsInASession() throws {
        let session = try Session()
        #expect(try session.run(["add-generic-password", "-s", "svc", "-a", "me", "-w", "stored-before-the-passcode"]).status == 0)
        #expect(try session.run(["passcode", "set"], input: "code-1234\n").status == 0)

        let locked = try session.run(["status"])
        #expect(locked.standardOutput.contains("keychain: daemon at \(session.socket)\n"), "\(locked.standardOutput)")
        #expect(locked.standardOutput.contains("lock state: before-first-unlock"))
        let daemon = try #require(Self.daemonProcess(serving: session.cli.home.path, runtime: session.runtime))

        let unlock = try session.run(["unlock"], input: "code-1234\n")
        #expect(unlock.status == 0)
        #expect(unlock.standardOutput == "unlocked\n")
        #expect(unlock.standardError.isEmpty, "\(unlock.standardError)")
        // The item stored embedded before the passcode is the daemon's too: one keychain, one view.
        let find = try session.run(["find-generic-password", "-s", "svc", "-a", "me", "-w"])
        #expect(find.status == 0, "\(find.standardError)")
        #expect(find.standardOutput == "stored-before-the-passcode\n")
        #expect(try session.run(["status"]).standardOutput.contains("lock state: unlocked"))
        #expect(Self.daemonProcess(serving: session.cli.home.path, runtime: session.runtime) == daemon, "one daemon serves every command")

        #expect(try session.run(["lock"]).status == 0)
        let afterLock = try session.run(["find-generic-password", "-s", "svc", "-a", "me", "-w"])
        #expect(afterLock.standardError.contains("errSecInteractionNotAllowed (-25308)"))

        // Logout removes the runtime folder: the daemon stops with its socket.
        try FileManager.default.removeItem(at: session.runtime)
        let deadline = ContinuousClock.now + .seconds(20)
        while Self.isRunning(daemon), ContinuousClock.now < deadline { usleep(50_000) }
        #expect(!Self.isRunning(daemon), "the daemon outlived its runtime folder")
    }

    @Test(.timeLimit(.minutes(2))) func withoutASessionTheUnlockLastsOneCommandAndSaysSo() throws {
        let cli = CLIRunner()
        defer { try? FileManager.default.removeItem(at: cli.home.deletingLastPathComponent()) }
        #expect(try cli.run(["add-generic-password", "-s", "svc", "-a", "me", "-w", "pw"]).status == 0)
        #expect(try cli.run(["passcode", "set"], input: "code-1234\n").status == 0)
        let unlock = try cli.run(["unlock"], input: "code-1234\n")
        #expect(unlock.status == 0)
        #expect(unlock.standardOutput == "unlocked\n")
        #expect(unlock.standardError.contains("the unlock lasts for this command only; run cofferd --user"))
        let find = try cli.run(["find-generic-password", "-s", "svc", "-w"])
        #expect(find.standardError.contains("errSecInteractionNotAllowed (-25308)"))
        #expect(Self.daemonProcess(serving: cli.home.path) == nil)
    }

    @Test(.timeLimit(.minutes(2))) func aKeychainWithoutAPasscodeStartsNoDaemon() throws {
        let session = try Session()
        #expect(try session.run(["add-generic-password", "-s", "svc", "-a", "me", "-w", "pw"]).status == 0)
        #expect(try session.run(["status"]).standardOutput.contains("keychain: \(session.cli.home.path)\n"))
        #expect(Self.daemonProcess(serving: session.cli.home.path, runtime: session.runtime) == nil)
    }

    /// A program using the keychain (the library's choice) finds the session's daemon, unless it names its
    /// access groups, which only the embedded keychain takes from the environment.
    @Test(.timeLimit(.minutes(2))) func programsFindTheSessionDaemon() throws {
        let session = try Session()
        #expect(try session.run(["add-generic-password", "-s", "svc", "-a", "me", "-w", "shared-secret"]).status == 0)
        #expect(try session.run(["passcode", "set"], input: "code-1234\n").status == 0)
        #expect(try session.run(["unlock"], input: "code-1234\n").status == 0)
        defer { try? FileManager.default.removeItem(at: session.runtime) }

        let environment = ["COFFER_HOME": session.cli.home.path, "XDG_RUNTIME_DIR": session.runtime.path]
        #expect(KeychainLocation.choice(environment: environment) == .daemon(socketPath: session.socket))
        let client = KeychainLocation.client(environment: environment)
        let value = try client.blocking.copyMatching(["class": "genp", "svce": "svc", "r_Data": true])
        #expect(value == .data(Data("shared-secret".utf8)), "the daemon's unlock is this program's too")

        var withGroups = environment
        withGroups["COFFER_ACCESS_GROUPS"] = "TEAM.app"
        #expect(KeychainLocation.choice(environment: withGroups) == .embedded(KeychainFolder.fromEnvironment(environment)))
    }

    /// A socket left by a daemon that was killed is no daemon: the keychain is used directly.
    @Test func aStaleSocketIsNotADaemon() throws {
        let session = try Session()
        try FileManager.default.createDirectory(atPath: (session.socket as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let listening = try UnixSocket.listen(at: session.socket, mode: 0o600)
        close(listening)
        let environment = ["COFFER_HOME": session.cli.home.path, "XDG_RUNTIME_DIR": session.runtime.path]
        #expect(KeychainLocation.choice(environment: environment) == .embedded(KeychainFolder.fromEnvironment(environment)))
    }

    /// Each folder has its own socket; the default folder has `socket`.
    @Test func socketNames() {
        let environment = ["HOME": "/home/a", "XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(PerUserDaemon.socketPath(for: KeychainFolder.fromEnvironment(environment), environment: environment) == "/run/user/1000/coffer/socket")
        var other = environment
        other["COFFER_HOME"] = "/home/a/project-keychain"
        let path = PerUserDaemon.socketPath(for: KeychainFolder.fromEnvironment(other), environment: other)
        #expect(path.hasPrefix("/run/user/1000/coffer/socket-") && path.count == "/run/user/1000/coffer/socket-".count + 16)
        other["COFFER_HOME"] = "/home/a/.local/share/coffer"
        #expect(PerUserDaemon.socketPath(for: KeychainFolder.fromEnvironment(other), environment: other) == "/run/user/1000/coffer/socket")
    }

    /// The pid of the `cofferd` serving `home`: the process holding the lock beside its socket (`/proc/locks`, which
    /// any user may read; a daemon is not dumpable, so its environment is not), if one runs.
    static func daemonProcess(serving home: String, runtime: URL? = nil) -> Int32? {
        let environment = ["COFFER_HOME": home, "XDG_RUNTIME_DIR": runtime?.path ?? "/nonexistent"]
        let lock = PerUserDaemon.socketPath(for: KeychainFolder.fromEnvironment(environment), environment: environment) + ".lock"
        var status = stat()
        guard stat(lock, &status) == 0, let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        for line in locks.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK", let pid = Int32(fields[4]),
                let inode = fields[5].split(separator: ":").last.flatMap({ UInt64($0) }), inode == UInt64(status.st_ino)
            else { continue }
            return isRunning(pid) ? pid : nil
        }
        return nil
    }

    /// Whether `pid` runs (an exited daemon whose parent has not reaped it yet is a zombie: not running).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(end, offsetBy: 2)...].prefix(1)
        return state != "Z" && state != "X"
    }
}
