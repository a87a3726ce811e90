import Foundation
import Testing

/// A keychain with a passcode, locked: searches still name the matching items (as locked), their secrets stay
/// out of reach, and `Unlock` hands out a prompt that asks through Coffer's prompter (here a scripted pinentry,
/// as over SSH with no desktop), after which `secret-tool` reads the secret.
@Suite("Secret Service with a locked keychain", .timeLimit(.minutes(10)))
struct LockedKeychainTests {
    private static let passcode = "correct horse"

    @Test
    func aLockedKeychainAnswersLockedItemsAndUnlocksThroughThePrompt() throws {
        let session = try SecretServiceSession(.embedded)
        #expect(try session.coffer(["passcode", "set"], input: "\(Self.passcode)\n").status == 0)
        try Self.writePinentry(at: session.path("pinentry"), answer: Self.passcode, log: session.path("pinentry.log"))
        try session.startProvider(["COFFER_PINENTRY": session.path("pinentry")])

        // The provider's keychain starts locked: the first store needs the prompt (libsecret asks for it).
        let ran = try session.python(
            Self.client + """
                print('locked', prop('Locked'))
                print('unlock', unlock())
                properties = {'org.freedesktop.Secret.Item.Label': GLib.Variant('s', 'Mail'),
                              'org.freedesktop.Secret.Item.Attributes': GLib.Variant('a{ss}', {'service': 'example.org'})}
                item = call('CreateItem', '(a{sv}(oayays)b)', (properties, (session, b'', b'hunter2', 'text/plain'), True),
                            path=collection, interface='Collection').unpack()[0]
                print('lock', call('Lock', '(ao)', ([collection],)).unpack()[0] == [collection])
                print('search', call('SearchItems', '(a{ss})', ({'service': 'example.org'},)).unpack() == ([], [item]))
                print('search-other', call('SearchItems', '(a{ss})', ({'service': 'example.com'},)).unpack())
                print('get-secrets', call('GetSecrets', '(aoo)', ([item], session)).unpack())
                try:
                    call('GetSecret', '(o)', (session,), path=item, interface='Item')
                except GLib.Error as error:
                    print('get-secret', Gio.DBusError.get_remote_error(error))
                print('unlock', unlock())
                print('search', call('SearchItems', '(a{ss})', ({'service': 'example.org'},)).unpack() == ([item], []))
                call('Lock', '(ao)', ([collection],))
                """)
        try #require(ran.status == 0, "\(ran.errors)")
        #expect(
            ran.output.split(separator: "\n") == [
                "locked True",
                "unlock (False, ['/org/freedesktop/secrets/collection/login'])",
                "lock True",
                "search True",
                "search-other ([], [])",
                "get-secrets ({},)",
                "get-secret org.freedesktop.Secret.Error.IsLocked",
                "unlock (False, ['/org/freedesktop/secrets/collection/login'])",
                "search True",
            ])

        // Locked again: secret-tool (another program, with items of its own) stores through the prompt, and, locked
        // once more, finds its item locked, unlocks it through the prompt and reads the secret.
        let stored = try session.secretTool(["store", "--label=Web", "service", "example.net"], input: "s3cret")
        #expect(stored.status == 0, "\(stored.errors)")
        #expect(try session.python(Self.client + "call('Lock', '(ao)', ([collection],))\n").status == 0)
        let looked = try session.secretTool(["lookup", "service", "example.net"])
        #expect(looked.status == 0, "\(looked.errors)")
        #expect(looked.output == "s3cret")
        let asked = try String(contentsOfFile: session.path("pinentry.log"), encoding: .utf8)
        #expect(asked.split(separator: "\n").count == 4)
    }

    @Test
    func aDismissedPromptLeavesTheKeychainLocked() throws {
        let session = try SecretServiceSession(.embedded)
        #expect(try session.coffer(["passcode", "set"], input: "\(Self.passcode)\n").status == 0)
        try Self.writePinentry(at: session.path("pinentry"), answer: nil, log: session.path("pinentry.log"))
        try session.startProvider(["COFFER_PINENTRY": session.path("pinentry")])
        let ran = try session.python(Self.client + "print('unlock', unlock())\nprint('locked', prop('Locked'))\n")
        try #require(ran.status == 0, "\(ran.errors)")
        #expect(ran.output == "unlock (True, [])\nlocked True\n")
    }

    /// Python's calls: `call`, the collection's `Locked` property, and `unlock()`, which calls `Unlock`, runs the
    /// prompt it gets and returns the `Completed` signal's arguments.
    private static let client = """
        collection = '/org/freedesktop/secrets/collection/login'
        def prop(name):
            return bus.call_sync('org.freedesktop.secrets', collection, 'org.freedesktop.DBus.Properties', 'Get',
                                 GLib.Variant('(ss)', ('org.freedesktop.Secret.Collection', name)), None, 0, -1, None).unpack()[0]
        def unlock():
            unlocked, prompt = call('Unlock', '(ao)', ([collection],)).unpack()
            if prompt == '/':
                return ('no prompt', unlocked)
            loop = GLib.MainLoop()
            result = []
            def completed(connection, sender, path, interface, signal, parameters):
                result.append(parameters.unpack())
                loop.quit()
            bus.signal_subscribe(None, 'org.freedesktop.Secret.Prompt', 'Completed', prompt, None, 0, completed)
            call('Prompt', '(s)', ('',), path=prompt, interface='Prompt')
            GLib.timeout_add_seconds(60, loop.quit)
            loop.run()
            return result[0] if result else 'no answer'
        session = call('OpenSession', '(sv)', ('plain', GLib.Variant('s', ''))).unpack()[1]

        """

    /// A scripted pinentry: it logs each `GETPIN` and answers it with `answer`, or cancels when `answer` is nil.
    private static func writePinentry(at path: String, answer: String?, log: String) throws {
        let reply = answer.map { "echo 'D \($0)'; echo OK" } ?? "echo 'ERR 83886179 Operation cancelled <Pinentry>'"
        let script = """
            #!/bin/sh
            echo "OK Pleased to meet you"
            while IFS= read -r line; do
              case "$line" in
                GETPIN*) echo GETPIN >> '\(log)'; \(reply) ;;
                BYE*) echo OK; exit 0 ;;
                *) echo OK ;;
              esac
            done
            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o700)
    }
}
