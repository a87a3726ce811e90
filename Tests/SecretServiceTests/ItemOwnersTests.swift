import Foundation
import Testing

/// `coffer apps owners` says which program owns how many Secret Service items; a program whose path changed
/// (a Python upgrade) is found missing, and registering the new path with `--keep-items-of` the old one gives it
/// its items back, through the daemon.
@Suite("Secret Service item owners", .timeLimit(.minutes(10)))
struct ItemOwnersTests {
    private static let passcode = "owners passcode"

    @Test(.timeLimit(.minutes(3))) func aProgramThatMovedIsNamedAndKeepsItsItemsWhenRegistered() throws {
        let session = try SecretServiceSession(.daemon)
        #expect(try session.coffer(["passcode", "set"], input: "\(Self.passcode)\n").status == 0)
        try session.startProvider()
        let old = session.path("old/secret-tool")
        let new = session.path("new/secret-tool")
        for path in [old, new] {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "/usr/bin/secret-tool", toPath: path)
        }
        let stored = try session.run([old, "store", "--label=Upgrade", "service", "upgrade"], input: "kept-across-upgrades")
        try #require(stored.status == 0, "\(stored.errors)")
        try session.store(label: "Mine", ["service", "mine"], secret: "secret-tool's own")
        try FileManager.default.removeItem(atPath: old)

        let listed = try session.coffer(["apps", "owners"])
        #expect(listed.status == 0, "\(listed.errors)")
        #expect(listed.output.contains("  1 item: /usr/bin/secret-tool (unregistered, unregistered."), "\(listed.output)")
        #expect(listed.output.contains(": no program found with that group (moved, upgraded or removed?)"), "\(listed.output)")
        #expect(listed.output.contains("coffer apps add NEW-PATH --app-id ID --by-path --keep-items-of OLD-PATH-OR-GROUP"))

        #expect(try session.run([new, "lookup", "service", "upgrade"]).output.isEmpty, "another path is another program")
        let added = try session.coffer(
            ["apps", "add", new, "--app-id", "TEAM.upgraded", "--by-path", "--keep-items-of", old], input: "\(Self.passcode)\n")
        try #require(added.status == 0, "\(added.errors)")
        #expect(try session.run([new, "lookup", "service", "upgrade"]).output == "kept-across-upgrades")
        #expect(try session.coffer(["apps", "owners"]).output.contains("  1 item: \(new) (registered, group unregistered."))
    }
}
