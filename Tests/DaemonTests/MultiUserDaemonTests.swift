import Foundation
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// The system service as it runs in production: `cofferd` as its own user, clients as other users.
/// Needs root (CI runs as root) to create the users; skipped otherwise.
@Suite(
    "cofferd as a system service, with real users", .serialized, .enabled(if: getuid() == 0, "needs root to create the users"),
    .enabled(if: HostCapabilities.canGrantPtrace, "CAP_SYS_PTRACE is not in this machine's bounding set, so cofferd cannot be given it as its unit does"),
    .timeLimit(.minutes(10)))
struct MultiUserDaemonTests {
    static let serviceUser = "coffer-test-svc"
    static let alice = "coffer-test-alice"
    static let bob = "coffer-test-bob"
    /// The group the fixture's copy of `coffer` is installed setgid to, as install.sh does with `coffer-cli`.
    static let frontEndGroup = "coffer-test-front"

    /// Everything one test needs: users, a 0755 scratch folder, copies of the client program.
    final class Fixture {
        let root: URL
        let socket: String
        let state: URL
        var daemon: ChildProcess?

        init() throws {
            for user in [MultiUserDaemonTests.serviceUser, MultiUserDaemonTests.alice, MultiUserDaemonTests.bob] {
                if try run(["/usr/bin/getent", "passwd", user]).status != 0 {
                    let created = try run(["/usr/sbin/useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user])
                    guard created.status == 0 else { throw CocoaError(.fileWriteNoPermission) }
                }
            }
            root = URL(fileURLWithPath: "/tmp/coffer-mu-\(UUID().uuidString.prefix(8))")
            state = root.appendingPathComponent("state")
            socket = root.appendingPathComponent("run/socket").path
            for folder in [root, root.appendingPathComponent("run"), root.appendingPathComponent("bin")] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            }
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            _ = try run(["/bin/chown", MultiUserDaemonTests.serviceUser, state.path, root.appendingPathComponent("run").path])
            for app in ["app-a", "app-b", "app-c"] {
                let copy = program(app)
                try FileManager.default.copyItem(atPath: Self.helper.path, toPath: copy)
                _ = chmod(copy, 0o755)
            }
            // The trusted front end: `coffer` installed root-owned and setgid to a group of its own.
            if getgrnam(MultiUserDaemonTests.frontEndGroup) == nil {
                _ = try run(["/usr/sbin/groupadd", "--system", MultiUserDaemonTests.frontEndGroup])
            }
            guard let frontEnd = getgrnam(MultiUserDaemonTests.frontEndGroup)?.pointee.gr_gid else { throw CocoaError(.fileWriteNoPermission) }
            try FileManager.default.copyItem(atPath: Self.binaries.appendingPathComponent("coffer").path, toPath: cli)
            guard chown(cli, 0, frontEnd) == 0, chmod(cli, 0o2755) == 0 else { throw CocoaError(.fileWriteNoPermission) }
        }

        /// The fixture's `coffer`, the trusted front end.
        var cli: String { program("coffer-cli") }

        static var helper: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("CofferTestHelper") }
        static var binaries: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }

        func program(_ name: String) -> String { root.appendingPathComponent("bin/\(name)").path }

        /// Starts cofferd as the service user with `environment` (NAME=VALUE) and `extraArguments`, with CAP_SYS_PTRACE as an ambient
        /// capability (as the unit grants it) unless told otherwise, and waits for its socket.
        func startDaemon(withPtraceCapability: Bool = true, environment: [String] = [], extraArguments: [String] = []) throws {
            var command = ["/usr/bin/setpriv", "--reuid", MultiUserDaemonTests.serviceUser, "--regid", MultiUserDaemonTests.serviceUser, "--clear-groups"]
            if withPtraceCapability { command += ["--inh-caps", "+sys_ptrace", "--ambient-caps", "+sys_ptrace"] }
            command += ["--"] + (environment.isEmpty ? [] : ["/usr/bin/env"] + environment)
            command +=
                [
                    try SharedExecutables.path("cofferd"), "--state-dir", state.path, "--socket", socket,
                    "--trusted-group", MultiUserDaemonTests.frontEndGroup,
                ] + extraArguments
            daemon = try ChildProcess(command, output: .null, errors: .null)
            for _ in 0..<1500 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        }

        /// Runs the client program `app` as `user`: one keychain call; returns the printed answer.
        func client(_ user: String, _ app: String, _ operation: String, _ account: String, group: String? = nil) throws -> String {
            var arguments = ["/usr/sbin/runuser", "-u", user, "--", program(app), "daemon-client", socket, operation, account]
            if let group { arguments.append(group) }
            return try run(arguments).output.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// Asks, as `user`'s program app-c, to unlock through the prompt agent until one is registered (a few
        /// seconds at most); returns the last answer: "0" once the agent's pinentry unlocked.
        func unlockThroughAgent(_ user: String) throws -> String {
            var answer = ""
            for _ in 0..<200 {
                answer = try client(user, "app-c", "unlock-prompt", "-")
                if answer != "-25291" { break }  // errSecNotAvailable: no agent yet
                usleep(50_000)
            }
            return answer
        }

        /// Starts `program` as `user` in `wait-then-client` mode, connected to the daemon and waiting for a
        /// line on standard input before it asks for `account`; returns it once it said "ready PID", with that PID.
        func startWaitingClient(_ user: String, _ program: String, find account: String) throws -> (client: ChildProcess, pid: String?) {
            let client = try ChildProcess(
                ["/usr/sbin/runuser", "-u", user, "--", program, "wait-then-client", socket, "find", account], input: .pipe, errors: .null)
            let ready = client.nextOutputLine()
            #expect(ready?.hasPrefix("ready") == true)
            return (client, ready?.split(separator: " ").last.map(String.init))
        }

        /// Lets a client ``startWaitingClient(_:_:find:)`` started make its call; returns what it printed.
        static func release(_ client: ChildProcess) throws -> String {
            try client.finish(writing: Data("go\n".utf8), timeout: .seconds(60)).outputText.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// Runs `coffer` as `user` against the daemon, with `input` on standard input.
        func coffer(_ user: String, _ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
            try run(["/usr/sbin/runuser", "-u", user, "--", "/usr/bin/env", "COFFER_SOCKET=\(socket)", cli] + arguments, input: input)
        }

        /// Runs `coffer` as root on behalf of `user`, as `sudo` does (`SUDO_UID`, `SUDO_GID`).
        func sudoCoffer(_ user: String, _ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
            try run(
                ["/usr/bin/env", "SUDO_UID=\(try uid(user))", "SUDO_GID=\(try gid(user))", "COFFER_SOCKET=\(socket)", cli]
                    + arguments, input: input)
        }

        /// Registers `app` for `user` by identity group (through sudo), setting `user`'s passcode first if asked.
        func registerByIdentityGroup(_ user: String, _ app: String, appID: String, groups: [String] = [], passcode: String) throws {
            let added = try sudoCoffer(user, ["apps", "add", program(app), "--app-id", appID] + groups.flatMap { ["--group", $0] }, input: passcode + "\n")
            guard added.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: added.output]) }
        }

        func uid(_ user: String) throws -> String { try run(["/usr/bin/id", "-u", user]).output.trimmingCharacters(in: .whitespacesAndNewlines) }

        func gid(_ user: String) throws -> String { try run(["/usr/bin/id", "-g", user]).output.trimmingCharacters(in: .whitespacesAndNewlines) }

        deinit {
            daemon?.terminate()
            // The identity groups `coffer apps add` created for this fixture's programs.
            let programs = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("bin").path)) ?? []
            for name in programs {
                var status = stat()
                guard stat(program(name), &status) == 0, let entry = getgrgid(status.st_gid),
                    let group = entry.pointee.gr_name.map({ String(cString: $0) }), group.hasPrefix("coffer-app-")
                else { continue }
                _ = try? run(["/usr/sbin/groupdel", group])
            }
            try? FileManager.default.removeItem(at: root)
        }
    }

    /// Runs `arguments` with `input` on standard input; its output and errors together.
    @discardableResult
    static func run(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
        let finished = try ChildProcess.run(arguments, input: input, errors: .sameAsOutput)
        return (finished.status, finished.outputText)
    }

    @Test func programsSeeOnlyTheirGroupsAndUsersOnlyTheirKeychains() throws {
        let fixture = try Fixture()
        try fixture.startDaemon()
        let alice = Self.alice
        // Registering programs needs the keychain passcode: without one, and with a wrong one, it is refused.
        let refused = try fixture.coffer(alice, ["apps", "add", fixture.program("app-a"), "--app-id", "TEAM.a", "--by-path"], input: "whatever\n")
        #expect(refused.status != 0)
        #expect(refused.output.contains("needs a keychain passcode"))
        #expect(try fixture.coffer(alice, ["passcode", "set"], input: "alice-code\n").status == 0)
        let wrong = try fixture.sudoCoffer(alice, ["apps", "add", fixture.program("app-a"), "--app-id", "TEAM.a"], input: "not-it\n")
        #expect(wrong.status != 0)
        #expect(wrong.output.contains("wrong passcode"))
        try fixture.registerByIdentityGroup(alice, "app-a", appID: "TEAM.a", groups: ["TEAM.a", "TEAM.shared"], passcode: "alice-code")
        try fixture.registerByIdentityGroup(alice, "app-b", appID: "TEAM.b", groups: ["TEAM.b", "TEAM.shared"], passcode: "alice-code")
        let listed = try fixture.coffer(alice, ["apps", "list"]).output
        #expect(listed.contains("TEAM.shared"))
        #expect(listed.contains("mode: identity group coffer-app-app-a-"))

        // Two registered executables with different groups each read only their own items.
        #expect(try fixture.client(alice, "app-a", "add", "item-a") == "0")
        #expect(try fixture.client(alice, "app-b", "add", "item-b") == "0")
        #expect(try fixture.client(alice, "app-a", "find", "item-a") == "0 secret-item-a")
        #expect(try fixture.client(alice, "app-a", "find", "item-b") == "-25300")
        #expect(try fixture.client(alice, "app-b", "find", "item-a") == "-25300")
        #expect(try fixture.client(alice, "app-a", "find", "item-b", group: "TEAM.b") == "-34018")

        // A shared group works for both.
        #expect(try fixture.client(alice, "app-a", "add", "shared", group: "TEAM.shared") == "0")
        #expect(try fixture.client(alice, "app-b", "find", "shared") == "0 secret-shared")

        // An unregistered program reads none of theirs: -25300 without a group, -34018 naming one.
        #expect(try fixture.client(alice, "app-c", "find", "item-a") == "-25300")
        #expect(try fixture.client(alice, "app-c", "find", "item-a", group: "TEAM.a") == "-34018")
        #expect(try fixture.client(alice, "app-c", "add", "own") == "0")
        #expect(try fixture.client(alice, "app-c", "find", "own") == "0 secret-own")

        // Another uid sees a different keychain.
        #expect(try fixture.client(Self.bob, "app-a", "find", "item-a") == "-25300")
        let aliceFolder = fixture.state.appendingPathComponent(try fixture.uid(alice))
        let bobFolder = fixture.state.appendingPathComponent(try fixture.uid(Self.bob))
        #expect(FileManager.default.fileExists(atPath: aliceFolder.appendingPathComponent("items.sqlite").path))
        #expect(FileManager.default.fileExists(atPath: bobFolder.appendingPathComponent("keybag").path))

        // A program of the same user cannot open the keychain files.
        let direct = try Self.run(["/usr/sbin/runuser", "-u", alice, "--", "/bin/cat", aliceFolder.appendingPathComponent("items.sqlite").path])
        #expect(direct.status != 0)
        #expect(direct.output.contains("Permission denied"))
    }

    @Test func aChangedPinnedBinaryLosesAccess() throws {
        let fixture = try Fixture()
        try fixture.startDaemon()
        let alice = Self.alice
        #expect(try fixture.coffer(alice, ["passcode", "set"], input: "alice-code\n").status == 0)
        #expect(
            try fixture.coffer(alice, ["apps", "add", fixture.program("app-a"), "--app-id", "TEAM.a", "--by-path", "--pin-hash"], input: "alice-code\n").status
                == 0)
        #expect(try fixture.coffer(alice, ["apps", "list"]).output.contains("mode: by path"))
        #expect(try fixture.client(alice, "app-a", "add", "pinned") == "0")
        // Replace the binary at the registered path with a different one.
        let path = fixture.program("app-a")
        try FileManager.default.removeItem(atPath: path)
        var bytes = try Data(contentsOf: Fixture.helper)
        bytes.append(contentsOf: [0, 1, 2, 3])  // same program, different hash
        try bytes.write(to: URL(fileURLWithPath: path))
        _ = chmod(path, 0o755)
        #expect(try fixture.client(alice, "app-a", "find", "pinned") == "-34018")
        // Re-approving restores access.
        #expect(try fixture.coffer(alice, ["apps", "add", path, "--app-id", "TEAM.a", "--by-path", "--pin-hash"], input: "alice-code\n").status == 0)
        #expect(try fixture.client(alice, "app-a", "find", "pinned") == "0 secret-pinned")
    }

    @Test func withoutPtraceCapabilityOtherUsersCannotBeIdentified() throws {
        let fixture = try Fixture()
        try fixture.startDaemon(withPtraceCapability: false)
        // The daemon cannot read /proc/PID/exe of another uid's process: it refuses rather than guessing.
        #expect(try fixture.client(Self.alice, "app-a", "add", "x") == "-25291")
    }
}
