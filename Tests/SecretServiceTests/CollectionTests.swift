import Foundation
import Testing

/// Collections: the built-in `login` and `session` as gnome-keyring serves them, others created with a label and an
/// alias, listed, relabelled, reached through aliases, searched on their own, deleted with their items, with the
/// Service's signals; the items of the `session` collection last until the provider starts again.
@Suite("Secret Service collections and aliases", .timeLimit(.minutes(10)))
struct CollectionTests {
    private static let client = """
        def get(path, interface, name):
            return bus.call_sync('org.freedesktop.secrets', path, 'org.freedesktop.DBus.Properties', 'Get',
                                 GLib.Variant('(ss)', ('org.freedesktop.Secret.' + interface, name)), None, 0, -1, None).unpack()[0]
        def set_label(path, label):
            bus.call_sync('org.freedesktop.secrets', path, 'org.freedesktop.DBus.Properties', 'Set',
                          GLib.Variant('(ssv)', ('org.freedesktop.Secret.Collection', 'Label', GLib.Variant('s', label))), None, 0, -1, None)
        def create_collection(label, alias):
            return call('CreateCollection', '(a{sv}s)', ({'org.freedesktop.Secret.Collection.Label': GLib.Variant('s', label)}, alias)).unpack()
        def create_item(collection, attributes, secret):
            properties = {'org.freedesktop.Secret.Item.Label': GLib.Variant('s', 'an item'),
                          'org.freedesktop.Secret.Item.Attributes': GLib.Variant('a{ss}', attributes)}
            return call('CreateItem', '(a{sv}(oayays)b)', (properties, (session, b'', secret, 'text/plain'), False),
                        path=collection, interface='Collection').unpack()[0]
        signals = []
        def heard(connection, sender, path, interface, signal, parameters):
            signals.append((signal, parameters.unpack()[0]))
        bus.signal_subscribe(None, 'org.freedesktop.Secret.Service', None, '/org/freedesktop/secrets', None, 0, heard)
        def drain():
            context = GLib.MainContext.default()
            for _ in range(50):
                context.iteration(False)
        session = call('OpenSession', '(sv)', ('plain', GLib.Variant('s', ''))).unpack()[1]

        """

    @Test(arguments: ProviderTransport.allCases)
    func aCollectionIsCreatedAliasedSearchedRelabelledAndDeleted(_ transport: ProviderTransport) throws {
        let session = try SecretServiceSession(transport)
        try session.startProvider()
        let ran = try session.python(
            Self.client + """
                work, prompt = create_collection('Work Mail', 'work')
                print('created', work, prompt)
                print('again', create_collection('Other', 'work')[0] == work)
                print('collections', get('/org/freedesktop/secrets', 'Service', 'Collections'))
                print('label', get(work, 'Collection', 'Label'), get(work, 'Collection', 'Created') > 0)
                item = create_item(work, {'service': 'mail'}, b'work-secret')
                create_item('/org/freedesktop/secrets/aliases/default', {'service': 'mail'}, b'login-secret')
                print('in work', call('SearchItems', '(a{ss})', ({'service': 'mail'},), path=work, interface='Collection').unpack()[0] == [item])
                print('everywhere', len(call('SearchItems', '(a{ss})', ({'service': 'mail'},)).unpack()[0]))
                print('alias', call('ReadAlias', '(s)', ('work',)).unpack()[0] == work)
                try:
                    call('SetAlias', '(so)', ('mine', work))
                except GLib.Error as error:
                    print('other alias', Gio.DBusError.get_remote_error(error))
                call('SetAlias', '(so)', ('default', work))
                print('set alias', call('ReadAlias', '(s)', ('default',)).unpack()[0] == work)
                set_label(work, 'Work')
                print('relabelled', get('/org/freedesktop/secrets/aliases/default', 'Collection', 'Label'))
                print('deleted', call('Delete', '()', None, path=work, interface='Collection').unpack())
                print('collections', get('/org/freedesktop/secrets', 'Service', 'Collections'))
                print('aliases gone', call('ReadAlias', '(s)', ('default',)).unpack(), call('ReadAlias', '(s)', ('work',)).unpack())
                print('login kept', len(call('SearchItems', '(a{ss})', ({'service': 'mail'},)).unpack()[0]))
                drain()
                print('signals', sorted(set(name for name, _ in signals)))
                """)
        try #require(ran.status == 0, "\(ran.errors)")
        #expect(
            ran.output.split(separator: "\n") == [
                "created /org/freedesktop/secrets/collection/work_mail /",
                "again True",
                "collections ['/org/freedesktop/secrets/collection/login', '/org/freedesktop/secrets/collection/session', '/org/freedesktop/secrets/collection/work_mail']",
                "label Work Mail True",
                "in work True",
                "everywhere 2",
                "alias True",
                "other alias org.freedesktop.DBus.Error.NotSupported",
                "set alias True",
                "relabelled Work",
                "deleted ('/',)",
                "collections ['/org/freedesktop/secrets/collection/login', '/org/freedesktop/secrets/collection/session']",
                "aliases gone ('/org/freedesktop/secrets/collection/login',) ('/',)",
                "login kept 1",
                "signals ['CollectionChanged', 'CollectionCreated', 'CollectionDeleted']",
            ])
    }

    @Test(arguments: ProviderTransport.allCases)
    func theSessionCollectionsItemsEndWhenTheProviderStartsAgain(_ transport: ProviderTransport) throws {
        let session = try SecretServiceSession(transport)
        try session.startProvider()
        let made = try session.python(
            Self.client + """
                collection = create_collection('Session', 'session')[0]
                print(collection)
                create_item(collection, {'service': 'temporary'}, b'for now')
                create_item('/org/freedesktop/secrets/collection/session', {'service': 'temporary'}, b'by path')
                set_label(collection, 'This session')
                work = create_collection('Kept', '')[0]
                print(len(call('SearchItems', '(a{ss})', ({'service': 'temporary'},)).unpack()[0]), work, get(collection, 'Collection', 'Label'))
                """)
        try #require(made.status == 0, "\(made.errors)")
        #expect(made.output == "/org/freedesktop/secrets/collection/session\n2 /org/freedesktop/secrets/collection/kept This session\n")
        session.stopProvider()
        try session.startProvider()
        let after = try session.python(
            Self.client + """
                print(call('ReadAlias', '(s)', ('session',)).unpack()[0])
                print(len(call('SearchItems', '(a{ss})', ({'service': 'temporary'},)).unpack()[0]))
                print(get('/org/freedesktop/secrets', 'Service', 'Collections'))
                print(repr(get('/org/freedesktop/secrets/collection/session', 'Collection', 'Label')))
                """)
        try #require(after.status == 0, "\(after.errors)")
        #expect(
            after.output == """
                /org/freedesktop/secrets/collection/session
                0
                ['/org/freedesktop/secrets/collection/login', '/org/freedesktop/secrets/collection/session', '/org/freedesktop/secrets/collection/kept']
                ''

                """)
    }

    /// The two collections gnome-keyring always serves, as it serves them: `login` (labelled "Login", a label a
    /// client may change and that lasts) and `session` (unlabelled, never created or modified), each reached by
    /// its path and by the alias of its name; neither is removed by `Delete`.
    @Test(arguments: ProviderTransport.allCases)
    func theLoginAndSessionCollectionsAreThereAsGnomeKeyringServesThem(_ transport: ProviderTransport) throws {
        let session = try SecretServiceSession(transport)
        try session.startProvider()
        let before = try session.python(
            Self.client + """
                base = '/org/freedesktop/secrets/collection/'
                print(get('/org/freedesktop/secrets', 'Service', 'Collections'))
                for name in ['login', 'session']:
                    print(name, repr(get(base + name, 'Collection', 'Label')), get(base + name, 'Collection', 'Locked'),
                          get(base + name, 'Collection', 'Items'), call('ReadAlias', '(s)', (name,)).unpack()[0])
                print('session times', get(base + 'session', 'Collection', 'Created'), get(base + 'session', 'Collection', 'Modified'))
                print('default', call('ReadAlias', '(s)', ('default',)).unpack()[0])
                set_label(base + 'login', 'My Login')
                print('relabelled', get(base + 'login', 'Collection', 'Label'))
                item = create_item(base + 'session', {'service': 'short-lived'}, b'session-secret')
                print('deleted', call('Delete', '()', None, path=base + 'session', interface='Collection').unpack())
                print('after delete', get('/org/freedesktop/secrets', 'Service', 'Collections'), get(base + 'session', 'Collection', 'Items'))
                """)
        try #require(before.status == 0, "\(before.errors)")
        #expect(
            before.output.split(separator: "\n") == [
                "['/org/freedesktop/secrets/collection/login', '/org/freedesktop/secrets/collection/session']",
                "login 'Login' False [] /org/freedesktop/secrets/collection/login",
                "session '' False [] /org/freedesktop/secrets/collection/session",
                "session times 0 0",
                "default /org/freedesktop/secrets/collection/login",
                "relabelled My Login",
                "deleted ('/',)",
                "after delete ['/org/freedesktop/secrets/collection/login', '/org/freedesktop/secrets/collection/session'] []",
            ])
        session.stopProvider()
        try session.startProvider()
        let after = try session.python(
            Self.client + """
                print(get('/org/freedesktop/secrets/collection/login', 'Collection', 'Label'))
                """)
        try #require(after.status == 0, "\(after.errors)")
        #expect(after.output == "My Login\n")
    }
}
