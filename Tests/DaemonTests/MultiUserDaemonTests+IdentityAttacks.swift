import ProgramIdentity
import Foundation
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// The attacks of issue #11 against a program registered by its identity group: each is tried by another
/// program of the same user, and none reads the registered program's item.
extension MultiUserDaemonTests {
    /// A daemon, alice's passcode, app-a registered by identity group with an item "item-a" it added.
    private func registeredFixture() throws -> Fixture {
        let fixture = try Fixture()
        try fixture.startDaemon()
        #expect(try fixture.coffer(Self.alice, ["passcode", "set"], input: "alice-code\n").status == 0)
        try fixture.registerByIdentityGroup(Self.alice, "app-a", appID: "TEAM.a", passcode: "alice-code")
        #expect(try fixture.client(Self.alice, "app-a", "add", "item-a") == "0")
        return fixture
    }

    @Test func sudoAppsAddMakesTheProgramSetgidToAGroupOfItsOwn() throws {
        let fixture = try registeredFixture()
        var status = stat()
        #expect(stat(fixture.program("app-a"), &status) == 0)
        #expect(status.st_uid == 0)
        #expect(status.st_mode & 0o7777 == 0o2755)
        let group = try #require(getgrgid(status.st_gid).map { String(cString: $0.pointee.gr_name) })
        #expect(group.hasPrefix("coffer-app-app-a-") && group.count <= 32)
        #expect(try fixture.client(Self.alice, "app-a", "find", "item-a") == "0 secret-item-a")
        #expect(try fixture.client(Self.alice, "app-c", "find", "item-a") == "-25300")
        // Alice's registration is hers: bob's copy of the same program sees bob's (empty) keychain.
        #expect(try fixture.client(Self.bob, "app-a", "find", "item-a") == "-25300")
    }

    @Test func aUserCannotRegisterAProgramWithoutIdentityGroupExceptByPath() throws {
        let fixture = try Fixture()
        try fixture.startDaemon()
        #expect(try fixture.coffer(Self.alice, ["passcode", "set"], input: "alice-code\n").status == 0)
        let refused = try fixture.coffer(Self.alice, ["apps", "add", fixture.program("app-b"), "--app-id", "TEAM.b"], input: "alice-code\n")
        #expect(refused.status != 0)
        #expect(refused.output.contains("sudo coffer apps add \(fixture.program("app-b"))"))
        #expect(refused.output.contains("--by-path"))
        // A file that already carries an identity group (set up by root, or a package's postinst) is registered by its group.
        // (Root's part through bob's sudo: bob has no passcode, so his registration is refused, but the file keeps its group.)
        #expect(try fixture.sudoCoffer(Self.bob, ["apps", "add", fixture.program("app-b"), "--app-id", "TEAM.b"], input: "x\n").status != 0)
        let added = try fixture.coffer(Self.alice, ["apps", "add", fixture.program("app-b"), "--app-id", "TEAM.b"], input: "alice-code\n")
        #expect(added.status == 0, "\(added.output)")
        #expect(try fixture.client(Self.alice, "app-b", "add", "item-b") == "0")
        #expect(try fixture.client(Self.alice, "app-b", "find", "item-b") == "0 secret-item-b")
    }

    @Test func execAfterConnectNeverGetsTheRegisteredProgramsItems() throws {
        let fixture = try registeredFixture()
        let race = try Self.run([
            "/usr/sbin/runuser", "-u", Self.alice, "--", fixture.program("app-c"), "exec-race",
            fixture.socket, fixture.program("app-a"), "item-a", "100",
        ])
        let lines = race.output.split(separator: "\n").map(String.init)
        #expect(lines.last == "successes 0", "exit status \(race.status): \(race.output)")
        let answers = lines.dropLast()
        #expect(answers.count == 100)
        // Every answer is a refusal: -34018 when the daemon saw the registered program without its group,
        // -25300 when it saw the attacker's own program.
        #expect(answers.allSatisfy { $0 == "-34018" || $0 == "-25300" }, "\(Set(answers))")
        // The race was run: in most tries the daemon saw the registered program at /proc/PID/exe.
        #expect(answers.filter { $0 == "-34018" }.count > 0, "\(Dictionary(answers.map { ($0, 1) }, uniquingKeysWith: +))")
    }

    @Test(.enabled(if: HostCapabilities.unprivilegedUserNamespaces, "this machine does not let a user make a user namespace (unshare -Ur)"))
    func aBindMountInAUserNamespaceIsRefused() throws {
        let fixture = try registeredFixture()
        let (registered, attacker) = (fixture.program("app-a"), fixture.program("app-c"))
        let mounted = try Self.run([
            "/usr/sbin/runuser", "-u", Self.alice, "--", "/usr/bin/unshare", "-Urm", "/bin/sh", "-c",
            "mount --bind \(attacker) \(registered) && exec \(registered) daemon-client \(fixture.socket) find item-a",
        ])
        #expect(mounted.output.trimmingCharacters(in: .whitespacesAndNewlines) == "-34018")
        // The registered program itself in a user namespace, where its group is not mapped: setgid does not apply.
        let unmapped = try Self.run([
            "/usr/sbin/runuser", "-u", Self.alice, "--", "/usr/bin/unshare", "-Urm", registered, "daemon-client", fixture.socket, "find", "item-a",
        ])
        #expect(unmapped.output.trimmingCharacters(in: .whitespacesAndNewlines) == "-34018")
    }

    @Test func theRegisteredFileCannotBeRewrittenInPlace() throws {
        let fixture = try registeredFixture()
        let registered = fixture.program("app-a")
        let before = try Data(contentsOf: URL(fileURLWithPath: registered))
        let rewrite = try Self.run([
            "/usr/sbin/runuser", "-u", Self.alice, "--", "/bin/sh", "-c",
            "mtime=$(stat -c %Y \(registered)); cat \(fixture.program("app-c")) > \(registered) && touch -m -d @$mtime \(registered)",
        ])
        #expect(rewrite.status != 0)
        #expect(rewrite.output.contains("Permission denied"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: registered)) == before)
        #expect(try fixture.client(Self.alice, "app-a", "find", "item-a") == "0 secret-item-a")
    }

    @Test func anLDPreloadedLibraryNeverRunsInTheRegisteredProgram() throws {
        let fixture = try registeredFixture()
        let source = fixture.root.appendingPathComponent("inject.c")
        let library = fixture.root.appendingPathComponent("inject.so").path
        try #"""
        #include <unistd.h>
        __attribute__((constructor)) static void injected(void) { write(1, "INJECTED\n", 9); }
        """#.write(to: source, atomically: true, encoding: .utf8)
        #expect(try Self.run(["/usr/bin/gcc", "-shared", "-fPIC", "-o", library, source.path]).status == 0)
        _ = chmod(library, 0o755)
        func preloaded(_ app: String) throws -> String {
            try Self.run([
                "/usr/sbin/runuser", "-u", Self.alice, "--", "/usr/bin/env", "LD_PRELOAD=\(library)",
                fixture.program(app), "daemon-client", fixture.socket, "find", "item-a",
            ]).output
        }
        // The library does run in an ordinary program (the attack works there)…
        #expect(try preloaded("app-c").contains("INJECTED"))
        // …but not in the registered one, which runs in secure-execution mode and reads its item as usual.
        #expect(try preloaded("app-a") == "0 secret-item-a\n")
    }

    @Test func aDebuggerOfTheSameUserCannotAttachToTheRegisteredProgram() throws {
        try DebianPackages.ensureInstalled(["gdb"])
        let fixture = try registeredFixture()
        func attach(_ app: String) throws -> String {
            let (target, ready) = try fixture.startWaitingClient(Self.alice, fixture.program(app), find: "item-a")
            defer { _ = try? target.finish(timeout: .seconds(60)) }
            let pid = try #require(ready)
            return try Self.run([
                "/usr/sbin/runuser", "-u", Self.alice, "--", "/usr/bin/gdb", "-nx", "--readnever", "-batch",
                "-p", pid, "-ex", "detach",
            ]).output
        }
        // Without Yama, a program of the same user attaches to an ordinary program…
        let ordinary = try attach("app-c")
        #expect(!ordinary.contains("Operation not permitted"), "\(ordinary)")
        // …but not to the registered one: a setgid program is not dumpable.
        let registered = try attach("app-a")
        #expect(registered.contains("ptrace: Operation not permitted"), "\(registered)")
    }
}
