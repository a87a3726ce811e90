import Foundation
import Testing

/// The Service interface called directly (`gdbus call`), for what `secret-tool` does not show: the `plain`
/// algorithm, refusals clients rely on, aliases, and unlocking a keychain that is not locked.
@Suite("org.freedesktop.Secret.Service through gdbus", .timeLimit(.minutes(10)))
struct ServiceInterfaceTests {
    private static let service = "/org/freedesktop/secrets"

    @Test
    func aPlainSessionCarriesTheSecretAsIs() throws {
        let session = try SecretServiceSession(.embedded)
        try session.startProvider()

        // One client for every call: a session ends with the connection that opened it, and a program sees the
        // items it stored.
        let ran = try session.python(
            """
            opened = call('OpenSession', '(sv)', ('plain', GLib.Variant('s', '')))
            print(opened.print_(True))
            properties = {'org.freedesktop.Secret.Item.Label': GLib.Variant('s', 'Example'),
                          'org.freedesktop.Secret.Item.Attributes': GLib.Variant('a{ss}', {'service': 'example.org'})}
            call('CreateItem', '(a{sv}(oayays)b)', (properties, (opened.unpack()[1], b'', b'hunter2', 'text/plain'), True),
                 path='/org/freedesktop/secrets/aliases/default', interface='Collection')
            searched = call('SearchItems', '(a{ss})', ({'service': 'example.org'},))
            print(searched.print_(True))
            print(call('GetSecrets', '(aoo)', (searched.unpack()[0], opened.unpack()[1])).print_(True))
            """)
        try #require(ran.status == 0, "\(ran.errors)")
        let lines = ran.output.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(lines)")
        let sessionPath = try #require(lines[0].firstMatch(of: /'(\/org\/freedesktop\/secrets\/session\/\w+)'/)?.1)
        #expect(lines[0].hasPrefix("(<''>, objectpath '"))
        let item = try #require(lines[1].firstMatch(of: /'(\/org\/freedesktop\/secrets\/collection\/login\/[0-9a-f]{32})'/)?.1)
        #expect(lines[1] == "([objectpath '\(item)'], @ao [])")
        #expect(
            lines[2]
                == "({objectpath '\(item)': (objectpath '\(sessionPath)', @ay [], [byte 0x68, 0x75, 0x6e, 0x74, 0x65, 0x72, 0x32], 'text/plain')},)"
        )
    }

    @Test
    func anUnknownAlgorithmIsNotSupported() throws {
        let session = try SecretServiceSession(.embedded)
        try session.startProvider()
        // libsecret falls back to `plain` on exactly this error.
        let refused = try session.call(Self.service, "org.freedesktop.Secret.Service.OpenSession", ["rot13", "<''>"])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("org.freedesktop.DBus.Error.NotSupported"))
    }

    @Test
    func theDefaultAliasNamesTheLoginCollection() throws {
        let session = try SecretServiceSession(.embedded)
        try session.startProvider()
        #expect(
            try session.call(Self.service, "org.freedesktop.Secret.Service.ReadAlias", ["default"]).output
                == "(objectpath '/org/freedesktop/secrets/collection/login',)\n")
        #expect(try session.call(Self.service, "org.freedesktop.Secret.Service.ReadAlias", ["unknown"]).output == "(objectpath '/',)\n")
    }

    @Test
    func unlockingAnUnlockedKeychainNeedsNoPrompt() throws {
        let session = try SecretServiceSession(.embedded)
        try session.startProvider()
        let item = "/org/freedesktop/secrets/collection/login"
        #expect(
            try session.call(Self.service, "org.freedesktop.Secret.Service.Unlock", ["['\(item)']"]).output
                == "([objectpath '\(item)'], objectpath '/')\n")
        // A keychain without a passcode cannot lock: nothing is reported locked.
        #expect(try session.call(Self.service, "org.freedesktop.Secret.Service.Lock", ["['\(item)']"]).output == "(@ao [], objectpath '/')\n")
    }

    @Test
    func aMissingItemIsAMissingObjectAsInGnomeKeyring() throws {
        let session = try SecretServiceSession(.embedded)
        try session.startProvider()
        // The session and the call on one connection: the session ends with its client.
        let missing = try session.python(
            """
            opened = bus.call_sync('org.freedesktop.secrets', '/org/freedesktop/secrets', 'org.freedesktop.Secret.Service',
                                   'OpenSession', GLib.Variant('(sv)', ('plain', GLib.Variant('s', ''))), None, 0, -1, None)
            try:
                bus.call_sync('org.freedesktop.secrets', '/org/freedesktop/secrets/collection/login/0123456789abcdef0123456789abcdef',
                              'org.freedesktop.Secret.Item', 'GetSecret', GLib.Variant('(o)', (opened.unpack()[1],)), None, 0, -1, None)
            except GLib.Error as error:
                print(Gio.DBusError.get_remote_error(error))
            """)
        #expect(missing.output == "org.freedesktop.DBus.Error.UnknownMethod\n", "\(missing.errors)")
    }

    /// Where no object exists, the answer is gnome-keyring's (GDBus's) UnknownMethod "Object does not exist at
    /// path …", which SecretStorage reads as "no such item"; introspection of the tree still answers.
    @Test(arguments: ProviderTransport.allCases)
    func aPathWithoutAnObjectIsAnsweredAsGnomeKeyringAnswersIt(_ transport: ProviderTransport) throws {
        let session = try SecretServiceSession(transport)
        try session.startProvider()
        let answers = try session.python(
            """
            def label(path, interface):
                try:
                    bus.call_sync('org.freedesktop.secrets', path, 'org.freedesktop.DBus.Properties', 'Get',
                                  GLib.Variant('(ss)', ('org.freedesktop.Secret.' + interface, 'Label')), None, 0, -1, None)
                    return 'found'
                except GLib.Error as error:
                    return error.message
            for path in ['/not/existing/path', '/org/freedesktop/secrets/collection/nonexistent', '/org/freedesktop/secrets/aliases/nonexistent',
                         '/org/freedesktop/secrets/session/none']:
                print(label(path, 'Collection'))
            print(label('/org/freedesktop/secrets/collection/login', 'Collection'))
            tree = bus.call_sync('org.freedesktop.secrets', '/', 'org.freedesktop.DBus.Introspectable', 'Introspect', None, None, 0, -1, None)
            print('<node name="org"/>' in tree.unpack()[0])
            """)
        #expect(answers.status == 0, "\(answers.errors)")
        let missing = "GDBus.Error:org.freedesktop.DBus.Error.UnknownMethod: Object does not exist at path"
        let lines = answers.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(answers.output)")
        for (line, path) in zip(
            lines,
            [
                "/not/existing/path", "/org/freedesktop/secrets/collection/nonexistent", "/org/freedesktop/secrets/aliases/nonexistent",
                "/org/freedesktop/secrets/session/none",
            ])
        {
            #expect(line == "\(missing) \u{201C}\(path)\u{201D}")
        }
        #expect(lines.dropFirst(4) == ["found", "True"])
    }
}
