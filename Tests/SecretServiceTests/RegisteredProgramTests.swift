import Foundation
import Testing

/// The provider maps each client to its program's registration (`coffer apps`, cofferd's registry): two
/// programs registered with a common access group see each other's items in that group, and an unregistered
/// program still sees none.
@Suite("Secret Service clients through the app registry", .timeLimit(.minutes(10)))
struct RegisteredProgramTests {
    private static let passcode = "registry passcode"

    @Test
    func programsRegisteredWithACommonGroupShareTheirItems() throws {
        let session = try SecretServiceSession(.daemon)
        #expect(try session.coffer(["passcode", "set"], input: "\(Self.passcode)\n").status == 0)
        let python = try Self.resolved("/usr/bin/python3")
        for (path, appID) in [("/usr/bin/secret-tool", "TEAM.org.example.tool"), (python, "TEAM.org.example.python")] {
            let added = try session.coffer(
                ["apps", "add", path, "--app-id", appID, "--group", "TEAM.org.example.shared", "--by-path"], input: "\(Self.passcode)\n")
            try #require(added.status == 0, "\(added.errors)")
        }
        let listed = try session.coffer(["apps", "list"])
        #expect(listed.output.contains("secret service: recognised by path, as cofferd does"))
        let json = try session.coffer(["apps", "list", "--json"])
        let apps = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(Set(apps.compactMap { $0["appID"] as? String }) == ["TEAM.org.example.tool", "TEAM.org.example.python"])
        #expect(apps.allSatisfy { $0["mode"] as? String == "path" && ($0["groups"] as? [String])?.first == "TEAM.org.example.shared" })
        try session.startProvider()
        try session.store(label: "Shared", ["service", "example.org"], secret: "hunter2")

        // Python (registered) finds secret-tool's item in their common group; gdbus (unregistered) does not.
        let ran = try session.python(
            """
            session = call('OpenSession', '(sv)', ('plain', GLib.Variant('s', ''))).unpack()[1]
            found = call('SearchItems', '(a{ss})', ({'service': 'example.org'},)).unpack()[0]
            print(len(found), bytes(call('GetSecrets', '(aoo)', (found, session)).unpack()[0][found[0]][2]).decode())
            """)
        try #require(ran.status == 0, "\(ran.errors)")
        #expect(ran.output == "1 hunter2\n")
        let outsider = try session.call(
            "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.SearchItems", ["{'service': 'example.org'}"])
        #expect(outsider.status == 0, "\(outsider.errors)")
        #expect(outsider.output.trimmingCharacters(in: .whitespacesAndNewlines) == "(@ao [], @ao [])")
    }

    /// `path` with every symbolic link resolved, as `/proc/PID/exe` shows the running program.
    private static func resolved(_ path: String) throws -> String {
        try #require(
            realpath(path, nil).map { pointer in
                defer { free(pointer) }
                return String(cString: pointer)
            })
    }
}
