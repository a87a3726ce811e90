import Foundation
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
import KeychainSelection
#endif

/// The `coffer` CLI against the per-user daemon (`cofferd --user`), both run as an ordinary user: the
/// daemon has no capabilities, so it can identify the CLI only while the CLI is dumpable. Needs root to
/// create the throwaway user; skipped otherwise.
@Suite("coffer against cofferd --user", .serialized, .enabled(if: getuid() == 0, "needs root to create the throwaway user"), .timeLimit(.minutes(10)))
struct UserDaemonCLITests {
    static let user = "coffer-test-alice"

    static var binaries: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }

    /// A per-user daemon run as ``user`` on a runtime and data folder of its own.
    final class Fixture {
        let root: URL
        let socket: String
        let uid: uid_t
        let gid: gid_t
        let daemon: ChildProcess

        init() throws {
            if try MultiUserDaemonTests.run(["/usr/bin/getent", "passwd", UserDaemonCLITests.user]).status != 0 {
                let created = try MultiUserDaemonTests.run(
                    ["/usr/sbin/useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", UserDaemonCLITests.user])
                guard created.status == 0 else { throw CocoaError(.fileWriteNoPermission) }
            }
            guard let entry = getpwnam(UserDaemonCLITests.user) else { throw CocoaError(.fileNoSuchFile) }
            uid = entry.pointee.pw_uid
            gid = entry.pointee.pw_gid
            root = URL(fileURLWithPath: "/tmp/coffer-ud-\(UUID().uuidString.prefix(8))")
            for folder in ["", "run", "home"] {
                let url = root.appendingPathComponent(folder)
                try FileManager.default.createDirectory(
                    at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: folder.isEmpty ? 0o755 : 0o700])
                chown(url.path, folder.isEmpty ? 0 : uid, folder.isEmpty ? 0 : gid)
            }
            socket = root.appendingPathComponent("run/coffer/socket").path
            // As `asUser` would, which cannot be called before every property is set.
            let command = [
                "/usr/bin/setpriv", "--reuid", String(uid), "--regid", String(gid), "--clear-groups", "--",
                "/usr/bin/env", "-u", "COFFER_SOCKET", "XDG_RUNTIME_DIR=\(root.appendingPathComponent("run").path)",
                "COFFER_HOME=\(root.appendingPathComponent("home/keychain").path)",
                try SharedExecutables.path("cofferd"), "--user", "--socket", socket,
            ]
            daemon = try ChildProcess(command, output: .null, errors: .null)
            for _ in 0..<1500 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        }

        /// `setpriv` arguments that run `command` as the user (exec, no fork: the process is the command).
        func asUser(_ command: [String]) -> [String] {
            ["--reuid", String(uid), "--regid", String(gid), "--clear-groups", "--"] + command
        }

        /// The `coffer` command line as the user, against the per-user daemon.
        func coffer(_ arguments: [String]) -> [String] {
            asUser(["/usr/bin/env", "-u", "COFFER_HOME", "COFFER_SOCKET=\(socket)", (try? SharedExecutables.path("coffer")) ?? "coffer"] + arguments)
        }

        deinit {
            daemon.terminate()
            try? FileManager.default.removeItem(at: root)
        }
    }

    /// `coffer` as install.sh installs it, setgid to a group of its own, is not dumpable from its first
    /// instruction, so the per-user daemon cannot read its executable: it is still served.
    @Test(.timeLimit(.minutes(2))) func theInstalledSetgidCommandWorksThroughThePerUserDaemon() throws {
        let fixture = try Fixture()
        if getgrnam(MultiUserDaemonTests.frontEndGroup) == nil {
            _ = try MultiUserDaemonTests.run(["/usr/sbin/groupadd", "--system", MultiUserDaemonTests.frontEndGroup])
        }
        let group = try #require(getgrnam(MultiUserDaemonTests.frontEndGroup)?.pointee.gr_gid)
        let installed = fixture.root.appendingPathComponent("coffer").path
        try FileManager.default.copyItem(atPath: Self.binaries.appendingPathComponent("coffer").path, toPath: installed)
        #expect(chown(installed, 0, group) == 0 && chmod(installed, 0o2755) == 0)
        func coffer(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
            try MultiUserDaemonTests.run(
                ["/usr/bin/setpriv"] + fixture.asUser(["/usr/bin/env", "-u", "COFFER_HOME", "COFFER_SOCKET=\(fixture.socket)", installed] + arguments),
                input: input)
        }
        let add = try coffer(["add-generic-password", "-s", "svc", "-a", "setgid", "-w"], input: "installed-secret\n")
        #expect(add.status == 0, "\(add.output)")
        let find = try coffer(["find-generic-password", "-s", "svc", "-a", "setgid", "-w"])
        #expect(find.status == 0, "\(find.output)")
        #expect(find.output == "installed-secret\n")
    }

    @Test(.timeLimit(.minutes(2))) func addAndFindAPasswordThroughThePerUserDaemon() throws {
        let fixture = try Fixture()
        let add = try MultiUserDaemonTests.run(
            ["/usr/bin/setpriv"] + fixture.coffer(["add-generic-password", "-s", "svc", "-a", "me", "-w"]), input: "user-daemon-secret\n")
        #expect(add.status == 0, "\(add.output)")
        let find = try MultiUserDaemonTests.run(["/usr/bin/setpriv"] + fixture.coffer(["find-generic-password", "-s", "svc", "-a", "me", "-w"]))
        #expect(find.status == 0, "\(find.output)")
        #expect(find.output == "user-daemon-secret\n")
        let status = try MultiUserDaemonTests.run(["/usr/bin/setpriv"] + fixture.coffer(["status"]))
        #expect(status.status == 0, "\(status.output)")
    }

    /// The CLI becomes non-dumpable once the daemon has identified it, before it reads the secret: while it
    /// waits for standard input, its `/proc/PID` files belong to root (the kernel's sign of a non-dumpable
    /// process), and the add still succeeds.
    @Test(.timeLimit(.minutes(2))) func theCLIIsNotDumpableWhenItReadsTheSecret() throws {
        let fixture = try Fixture()
        let process = try ChildProcess(
            ["/usr/bin/setpriv"] + fixture.coffer(["add-generic-password", "-s", "svc", "-a", "later", "-w"]),
            input: .pipe, errors: .sameAsOutput)
        // setpriv and env exec: the process is coffer itself once its executable is coffer.
        let proc = "/proc/\(process.pid)"
        var becameUndumpable = false
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning && ContinuousClock.now < deadline {
            let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(proc)/exe")
            var status = stat()
            if exe?.hasSuffix("/coffer") == true, stat("\(proc)/status", &status) == 0, status.st_uid == 0 {
                becameUndumpable = true
                break
            }
            usleep(5_000)
        }
        #expect(becameUndumpable)
        let added = try process.finish(writing: Data("typed-later\n".utf8))
        #expect(added.status == 0, "\(added.outputText)")
    }
}
