import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A program a Debian package installs: `apps add` gives it its identity through `dpkg-statoverride`, so
/// an upgrade keeps the mode, and the daemon follows the file the upgrade put in place.
extension MultiUserDaemonTests {
    static let packageName = "coffer-test-pkg"
    static let packagedProgram = "/usr/lib/coffer-test-pkg/app"

    /// Builds version `version` of the test package around a copy of the helper (`extra` bytes appended).
    private func buildPackage(_ fixture: Fixture, version: String, extra: [UInt8]) throws -> String {
        let tree = fixture.root.appendingPathComponent("pkg-\(version)")
        let lib = tree.appendingPathComponent("usr/lib/\(Self.packageName)")
        try FileManager.default.createDirectory(at: lib, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: tree.appendingPathComponent("DEBIAN"), withIntermediateDirectories: true)
        var program = try Data(contentsOf: Fixture.helper)
        program.append(contentsOf: extra)
        try program.write(to: lib.appendingPathComponent("app"))
        _ = chmod(lib.appendingPathComponent("app").path, 0o755)
        try """
        Package: \(Self.packageName)
        Version: \(version)
        Architecture: all
        Maintainer: Coffer tests <tests@example.invalid>
        Description: a throwaway program for Coffer's identity tests

        """.write(to: tree.appendingPathComponent("DEBIAN/control"), atomically: true, encoding: .utf8)
        let deb = fixture.root.appendingPathComponent("\(Self.packageName)_\(version).deb").path
        let built = try Self.run(["/usr/bin/dpkg-deb", "--root-owner-group", "--build", tree.path, deb])
        guard built.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: built.output]) }
        return deb
    }

    @Test func aPackagedProgramKeepsItsIdentityThroughAnUpgrade() throws {
        let fixture = try Fixture()
        defer {
            var status = stat()
            let group = stat(Self.packagedProgram, &status) == 0 ? getgrgid(status.st_gid).map { String(cString: $0.pointee.gr_name) } : nil
            _ = try? Self.run(["/usr/bin/dpkg", "--purge", Self.packageName])
            _ = try? Self.run(["/usr/bin/dpkg-statoverride", "--remove", Self.packagedProgram])
            if let group, group.hasPrefix("coffer-app-") { _ = try? Self.run(["/usr/sbin/groupdel", group]) }
        }
        let version1 = try buildPackage(fixture, version: "1.0", extra: [])
        let version2 = try buildPackage(fixture, version: "2.0", extra: [1, 2, 3, 4])
        #expect(try Self.run(["/usr/bin/dpkg", "-i", version1]).status == 0)
        try fixture.startDaemon()
        let alice = Self.alice
        #expect(try fixture.coffer(alice, ["passcode", "set"], input: "alice-code\n").status == 0)
        let added = try fixture.sudoCoffer(alice, ["apps", "add", Self.packagedProgram, "--app-id", "TEAM.pkg"], input: "alice-code\n")
        #expect(added.status == 0, "\(added.output)")
        let override = try Self.run(["/usr/bin/dpkg-statoverride", "--list", Self.packagedProgram]).output
        #expect(override.hasPrefix("root coffer-app-app-") && override.contains(" 2755 \(Self.packagedProgram)"), "\(override)")

        func client(_ arguments: [String]) throws -> String {
            try Self.run(["/usr/sbin/runuser", "-u", alice, "--", Self.packagedProgram] + arguments).output
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try client(["daemon-client", fixture.socket, "add", "pkg-item"]) == "0")
        // A process started before the upgrade, which will read after it (its executable then shows " (deleted)").
        let old = try fixture.startWaitingClient(alice, Self.packagedProgram, find: "pkg-item").client
        var before = stat()
        _ = stat(Self.packagedProgram, &before)

        #expect(try Self.run(["/usr/bin/dpkg", "-i", version2]).status == 0)
        var after = stat()
        _ = stat(Self.packagedProgram, &after)
        #expect(after.st_ino != before.st_ino, "the upgrade put a new file in place")
        #expect(after.st_mode & 0o7777 == 0o2755 && after.st_gid == before.st_gid && after.st_uid == 0, "dpkg applied the override")
        // The new version reads its items (and the daemon records the new file)…
        #expect(try client(["daemon-client", fixture.socket, "find", "pkg-item"]) == "0 secret-pkg-item")
        // …and so does the process started before the upgrade.
        #expect(try Fixture.release(old) == "0 secret-pkg-item")
        #expect(try fixture.coffer(alice, ["apps", "list"]).output.contains("mode: identity group coffer-app-app-"))

        // Removing the identity (root) removes the override, the setgid bit and the group.
        let removed = try fixture.sudoCoffer(alice, ["apps", "remove", Self.packagedProgram, "--remove-identity"], input: "alice-code\n")
        #expect(removed.status == 0, "\(removed.output)")
        #expect(try Self.run(["/usr/bin/dpkg-statoverride", "--list", Self.packagedProgram]).output.isEmpty)
        var cleared = stat()
        _ = stat(Self.packagedProgram, &cleared)
        #expect(cleared.st_mode & 0o7777 == 0o755 && cleared.st_gid == 0)
        #expect(getgrgid(before.st_gid) == nil)
        #expect(try fixture.coffer(alice, ["apps", "list"]).output.contains("no registered programs"))
    }
}
