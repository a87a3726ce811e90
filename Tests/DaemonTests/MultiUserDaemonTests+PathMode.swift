import ProgramIdentity
import Foundation
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// Path mode (`coffer apps add --by-path`), the convenience mode: the bypasses the kernel lets the daemon
/// close are closed; exec after connect is not, and a test shows it.
extension MultiUserDaemonTests {
    /// A daemon, alice's passcode, app-a registered by path (pinned when asked) with an item "item-a".
    private func pathModeFixture(pinned: Bool = false, ownedByAlice: Bool = false) throws -> Fixture {
        let fixture = try Fixture()
        if ownedByAlice { _ = try Self.run(["/bin/chown", Self.alice, fixture.program("app-a")]) }
        try fixture.startDaemon()
        #expect(try fixture.coffer(Self.alice, ["passcode", "set"], input: "alice-code\n").status == 0)
        let added = try fixture.coffer(
            Self.alice, ["apps", "add", fixture.program("app-a"), "--app-id", "TEAM.a", "--by-path"] + (pinned ? ["--pin-hash"] : []),
            input: "alice-code\n")
        #expect(added.status == 0, "\(added.output)")
        #expect(try fixture.client(Self.alice, "app-a", "add", "item-a") == "0")
        return fixture
    }

    @Test(.enabled(if: HostCapabilities.unprivilegedUserNamespaces, "this machine does not let a user make a user namespace (unshare -Ur)"))
    func pathModeRefusesABindMountInAUserNamespace() throws {
        let fixture = try pathModeFixture()
        let (registered, attacker) = (fixture.program("app-a"), fixture.program("app-c"))
        let mounted = try Self.run([
            "/usr/sbin/runuser", "-u", Self.alice, "--", "/usr/bin/unshare", "-Urm", "/bin/sh", "-c",
            "mount --bind \(attacker) \(registered) && exec \(registered) daemon-client \(fixture.socket) find item-a",
        ])
        #expect(mounted.output.trimmingCharacters(in: .whitespacesAndNewlines) == "-34018")
        // Even the registered file itself is refused from another namespace, where its path proves nothing.
        let namespaced = try Self.run([
            "/usr/sbin/runuser", "-u", Self.alice, "--", "/usr/bin/unshare", "-Urm", registered, "daemon-client", fixture.socket, "find", "item-a",
        ])
        #expect(namespaced.output.trimmingCharacters(in: .whitespacesAndNewlines) == "-34018")
        #expect(try fixture.client(Self.alice, "app-a", "find", "item-a") == "0 secret-item-a")
    }

    @Test func pathModeDetectsAnInPlaceRewriteWithTheModificationTimeRestored() throws {
        let fixture = try pathModeFixture(pinned: true, ownedByAlice: true)
        let registered = fixture.program("app-a")
        #expect(try fixture.client(Self.alice, "app-a", "find", "item-a") == "0 secret-item-a")
        // Same size, one byte changed in the section headers (the program still runs), the old mtime put back.
        let size = try #require(FileIdentityProbe.size(of: registered))
        let rewrite = try Self.run([
            "/usr/sbin/runuser", "-u", Self.alice, "--", "/bin/sh", "-c",
            "mtime=$(stat -c %y \(registered)); printf 'Z' | dd of=\(registered) bs=1 seek=\(size - 1) conv=notrunc status=none && touch -m -d \"$mtime\" \(registered)",
        ])
        #expect(rewrite.status == 0, "\(rewrite.output)")
        #expect(FileIdentityProbe.size(of: registered) == size)
        #expect(try fixture.client(Self.alice, "app-a", "find", "item-a") == "-34018")
    }

    @Test func pathModeKeepsAProgramWhoseFileWasReplacedWhileItRan() throws {
        let fixture = try pathModeFixture()
        #expect(try fixture.client(Self.alice, "app-c", "add", "own-c") == "0")
        let registered = try fixture.startWaitingClient(Self.alice, fixture.program("app-a"), find: "item-a").client
        let unregistered = try fixture.startWaitingClient(Self.alice, fixture.program("app-c"), find: "own-c").client
        // An upgrade replaces both files (a new inode at the same path); the running processes show " (deleted)".
        for app in ["app-a", "app-c"] {
            try FileManager.default.removeItem(atPath: fixture.program(app))
            try FileManager.default.copyItem(atPath: Fixture.helper.path, toPath: fixture.program(app))
        }
        let answers = try [registered, unregistered].map(Fixture.release)
        #expect(answers == ["0 secret-item-a", "0 secret-own-c"])
    }

    @Test func pathModeCannotCloseExecAfterConnect() throws {
        // Documented, not fixed: the path names the program only when the daemon reads it, after connect.
        let fixture = try pathModeFixture()
        let race = try Self.run([
            "/usr/sbin/runuser", "-u", Self.alice, "--", fixture.program("app-c"), "exec-race",
            fixture.socket, fixture.program("app-a"), "item-a", "100",
        ])
        let successes = race.output.split(separator: "\n").last.flatMap { Int($0.split(separator: " ").last ?? "") }
        let tally = Dictionary(race.output.split(separator: "\n").dropLast().map { ($0, 1) }, uniquingKeysWith: +)
        print("exec-after-connect against a path-mode registration: \(tally)")
        #expect((successes ?? 0) > 0, "the race the identity-group test withstands does reach path mode: \(tally)")
    }
}

/// A file's size, for the rewrite test.
enum FileIdentityProbe {
    static func size(of path: String) -> Int? {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : nil
    }
}
