import Foundation
import Testing

/// Collections beyond `login`: created with a label and an alias, listed, relabelled, reached through aliases,
/// searched on their own, deleted with their items, with the Service's signals; a collection made for the
/// `session` alias lasts until the provider starts again.
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
                call('SetAlias', '(so)', ('mine', work))
                print('set alias', call('ReadAlias', '(s)', ('mine',)).unpack()[0] == work)
                set_label(work, 'Work')
                print('relabelled', get('/org/freedesktop/secrets/aliases/mine', 'Collection', 'Label'))
                print('deleted', call('Delete', '()', None, path=work, interface='Collection').unpack())
                print('collections', get('/org/freedesktop/secrets', 'Service', 'Collections'))
                print('aliases gone', call('ReadAlias', '(s)', ('mine',)).unpack(), call('ReadAlias', '(s)', ('work',)).unpack())
                print('login kept', len(call('SearchItems', '(a{ss})', ({'service': 'mail'},)).unpack()[0]))
                drain()
                print('signals', sorted(set(name for name, _ in signals)))
                """)
        try #require(ran.status == 0, "\(ran.errors)")
        #expect(
            ran.output.split(separator: "\n") == [
                "created /org/freedesktop/secrets/collection/work_mail /",
                "again True",
                "collections ['/org/freedesktop/secrets/collection/login', '/org/freedesktop/secrets/collection/work_mail']",
                "label Work Mail True",
                "in work True",
                "everywhere 2",
                "alias True",
                "set alias True",
                "relabelled Work",
                "deleted ('/',)",
                "collections ['/org/freedesktop/secrets/collection/login']",
                "aliases gone ('/',) ('/',)",
                "login kept 1",
                "signals ['CollectionChanged', 'CollectionCreated', 'CollectionDeleted']",
            ])
    }

    @Test
    func aSessionCollectionEndsWhenTheProviderStartsAgain() throws {
        let session = try SecretServiceSession(.embedded)
        try session.startProvider()
        let made = try session.python(
            Self.client + """
                collection = create_collection('Session', 'session')[0]
                create_item(collection, {'service': 'temporary'}, b'for now')
                work = create_collection('Kept', '')[0]
                print(len(call('SearchItems', '(a{ss})', ({'service': 'temporary'},)).unpack()[0]), work)
                """)
        try #require(made.status == 0, "\(made.errors)")
        #expect(made.output == "1 /org/freedesktop/secrets/collection/kept\n")
        session.stopProvider()
        try session.startProvider()
        let after = try session.python(
            Self.client + """
                print(call('ReadAlias', '(s)', ('session',)).unpack()[0])
                print(len(call('SearchItems', '(a{ss})', ({'service': 'temporary'},)).unpack()[0]))
                print(get('/org/freedesktop/secrets', 'Service', 'Collections'))
                """)
        try #require(after.status == 0, "\(after.errors)")
        #expect(after.output == "/\n0\n['/org/freedesktop/secrets/collection/login', '/org/freedesktop/secrets/collection/kept']\n")
    }
}
