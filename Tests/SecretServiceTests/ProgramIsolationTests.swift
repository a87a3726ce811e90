import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Each program sees only its own items: `secret-tool` and a Python client are two programs (two executables,
/// unregistered, each with an access group derived from its path), so neither reaches the other's items by any
/// call of the interface. Only the owner's root-owned settings file restores gnome-keyring's behaviour
/// (`isolation = shared`): whoever starts a provider cannot, through its environment or a file of its own.
@Suite("Secret Service: one program's items are not another's", .timeLimit(.minutes(10)))
struct ProgramIsolationTests {
    /// Python's half of the calls: `call` on the service, a collection or an item, and what it printed.
    private static let client = """
        def attempt(label, body):
            try:
                print(label, body())
            except GLib.Error as error:
                print(label, 'error', Gio.DBusError.get_remote_error(error))
        session = call('OpenSession', '(sv)', ('plain', GLib.Variant('s', ''))).unpack()[1]

        """

    @Test(arguments: ProviderTransport.allCases)
    func anotherProgramReachesNoneOfTheItems(_ transport: ProviderTransport) throws {
        let session = try SecretServiceSession(transport)
        try session.startProvider()
        try session.store(label: "Mail", ["service", "example.org", "user", "ada"], secret: "hunter2")
        let listed = try session.secretTool(["search", "--all", "service", "example.org"])
        let item = try Self.itemPath(listed.output)

        let ran = try session.python(
            Self.client + """
                item = '\(item)'
                attempt('search', lambda: call('SearchItems', '(a{ss})', ({'service': 'example.org'},)).unpack())
                attempt('search-all', lambda: call('SearchItems', '(a{ss})', ({},)).unpack())
                attempt('collection-search', lambda: call('SearchItems', '(a{ss})', ({'user': 'ada'},),
                        path='/org/freedesktop/secrets/collection/login', interface='Collection').unpack())
                attempt('get-secrets', lambda: call('GetSecrets', '(aoo)', ([item], session)).unpack())
                attempt('get-secret', lambda: call('GetSecret', '(o)', (session,), path=item, interface='Item').unpack())
                attempt('attributes', lambda: bus.call_sync('org.freedesktop.secrets', item, 'org.freedesktop.DBus.Properties', 'Get',
                        GLib.Variant('(ss)', ('org.freedesktop.Secret.Item', 'Attributes')), None, 0, -1, None).unpack())
                attempt('set-label', lambda: bus.call_sync('org.freedesktop.secrets', item, 'org.freedesktop.DBus.Properties', 'Set',
                        GLib.Variant('(ssv)', ('org.freedesktop.Secret.Item', 'Label', GLib.Variant('s', 'mine'))), None, 0, -1, None).unpack())
                attempt('set-secret', lambda: call('SetSecret', '((oayays))', ((session, b'', b'stolen', 'text/plain'),), path=item, interface='Item').unpack())
                attempt('delete', lambda: call('Delete', '()', None, path=item, interface='Item').unpack())
                properties = {'org.freedesktop.Secret.Item.Label': GLib.Variant('s', 'Mine'),
                              'org.freedesktop.Secret.Item.Attributes': GLib.Variant('a{ss}', {'service': 'example.org', 'user': 'ada'})}
                attempt('replace', lambda: call('CreateItem', '(a{sv}(oayays)b)', (properties, (session, b'', b'py-secret', 'text/plain'), True),
                        path='/org/freedesktop/secrets/aliases/default', interface='Collection').unpack()[0] != item)
                """)
        try #require(ran.status == 0, "\(ran.errors)")
        #expect(
            ran.output.split(separator: "\n") == [
                "search ([], [])",
                "search-all ([], [])",
                "collection-search ([],)",
                "get-secrets ({},)",
                "get-secret error org.freedesktop.DBus.Error.UnknownMethod",
                "attributes error org.freedesktop.DBus.Error.UnknownMethod",
                "set-label error org.freedesktop.DBus.Error.UnknownMethod",
                "set-secret error org.freedesktop.DBus.Error.UnknownMethod",
                "delete error org.freedesktop.DBus.Error.UnknownMethod",
                "replace True",
            ])

        // secret-tool still has its own item, unchanged, and does not see Python's.
        #expect(try session.secretTool(["lookup", "service", "example.org"]).output == "hunter2")
        let mine = try session.secretTool(["search", "--all", "service", "example.org"])
        #expect(mine.output.split(separator: "\n").filter { $0.hasPrefix("[/") }.count == 1)
        #expect(mine.output.contains("label = Mail"))
    }

    /// The item path `secret-tool search` printed (it shows the last element under its collection's).
    private static func itemPath(_ searched: String) throws -> String {
        let id = try #require(searched.firstMatch(of: /\[\/([0-9a-f]{32})\]/)?.1)
        return "/org/freedesktop/secrets/collection/login/\(id)"
    }

    @Test
    func refusalsAreAMissingObjectsAnswer() throws {
        let session = try SecretServiceSession(.embedded)
        try session.startProvider()
        try session.store(label: "Mail", ["service", "example.org"], secret: "hunter2")
        let listed = try session.secretTool(["search", "--all", "service", "example.org"])
        let item = try Self.itemPath(listed.output)
        // gdbus is a third program: for it the item does not exist.
        let read = try session.call(item, "org.freedesktop.DBus.Properties.Get", ["org.freedesktop.Secret.Item", "Label"])
        #expect(read.status != 0)
        // The answer gnome-keyring gives for an item that does not exist.
        #expect(read.errors.contains("org.freedesktop.DBus.Error.UnknownMethod"))
    }

    /// The Python half that reads every item it can find: how many, and the first one's secret.
    private static let reader =
        client + """
            found = call('SearchItems', '(a{ss})', ({'service': 'example.org'},)).unpack()[0]
            print(len(found), bytes(call('GetSecrets', '(aoo)', (found, session)).unpack()[0][found[0]][2]).decode() if found else '-')
            """

    /// A settings file in a folder of its own under /tmp, root's (the test runs as root) unless `owner` says otherwise,
    /// with `mode`.
    private static func settingsFile(_ text: String, mode: mode_t = 0o644, owner: uid_t = 0) throws -> (path: String, folder: String) {
        var template = Array("/tmp/coffer-settings-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        let folder = String(cString: made)
        let path = "\(folder)/secret-service.conf"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, mode) == 0 && chown(path, owner, 0) == 0)
        return (path, folder)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to make a root-owned settings file"))
    func theOwnersSharedSettingLetsEveryProgramSeeEveryItem() throws {
        let (path, folder) = try Self.settingsFile("# the owner's choice\nisolation = shared\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try SecretServiceSession(.embedded)
        try session.startProvider(arguments: ["--settings", path])
        try session.store(label: "Mail", ["service", "example.org"], secret: "hunter2")
        let ran = try session.python(Self.reader)
        try #require(ran.status == 0, "\(ran.errors)")
        #expect(ran.output == "1 hunter2\n")
    }

    /// The attack a probe found: a program of the user starts a provider of its own (here on the test's private bus,
    /// after the real one stopped) with the variable that used to turn isolation off, then reads another program's
    /// items. The variable is not obeyed, nor is a settings file the program wrote itself or one others may write.
    @Test(arguments: ProviderTransport.allCases)
    func whoeverStartsTheProviderCannotTurnIsolationOff(_ transport: ProviderTransport) throws {
        let session = try SecretServiceSession(transport)
        try session.startProvider()
        try session.store(label: "Mail", ["service", "example.org"], secret: "hunter2")
        session.stopProvider()

        var attempts: [(settings: [String: String], arguments: [String], notice: String)] = [
            (["COFFER_SECRET_SERVICE_ISOLATION": "shared"], [], "COFFER_SECRET_SERVICE_ISOLATION=shared is not obeyed")
        ]
        var folders: [String] = []
        defer { for folder in folders { try? FileManager.default.removeItem(atPath: folder) } }
        if getuid() == 0 {
            let writable = try Self.settingsFile("isolation = shared\n", mode: 0o666)
            let usersOwn = try Self.settingsFile("isolation = shared\n", owner: 65_534)
            folders += [writable.folder, usersOwn.folder]
            attempts.append(([:], ["--settings", writable.path], "is writable by others than root"))
            attempts.append(([:], ["--settings", usersOwn.path], "belongs to uid 65534, not root"))
        }
        for attempt in attempts {
            try session.startProvider(attempt.settings, arguments: attempt.arguments)
            let ran = try session.python(Self.reader)
            try #require(ran.status == 0, "\(ran.errors)")
            #expect(ran.output == "0 -\n", "\(attempt.arguments) \(attempt.settings)")
            session.stopProvider()
            #expect(session.providerErrors.contains(attempt.notice))
        }
        // The item is still secret-tool's, unchanged.
        try session.startProvider()
        #expect(try session.secretTool(["lookup", "service", "example.org"]).output == "hunter2")
    }

    /// A program that runs a bus of its own could make it report any credentials to a provider it starts there: the
    /// provider serves only a bus whose daemon is a root-owned program in root-owned folders.
    @Test(arguments: ProviderTransport.allCases)
    func aBusFromAProgramOfTheUsersOwnIsNotServed(_ transport: ProviderTransport) throws {
        let session = try SecretServiceSession(transport, busDaemonCopy: true)
        #expect(throws: (any Error).self) { try session.startProvider() }
        #expect(session.lastStartErrors.contains("will not serve this bus: the bus daemon must be a root-owned program in root-owned folders"))
        #expect(session.lastStartErrors.contains("/dbus-daemon"))
    }

    @Test(.enabled(if: getuid() == 0, "needs root to make a root-owned settings file"))
    func anUnknownIsolationSettingIsRefused() throws {
        let (path, folder) = try Self.settingsFile("isolation = none\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try SecretServiceSession(.embedded)
        #expect(throws: (any Error).self) { try session.startProvider(arguments: ["--settings", path]) }
        #expect(session.lastStartErrors.contains("isolation in \(path) must be per-program or shared, not none"))
    }
}
