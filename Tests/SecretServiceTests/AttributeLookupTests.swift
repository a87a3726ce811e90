import Foundation
import Testing

/// Searches through the attribute postings: an attribute many items share (here 70 items of one service, more
/// than a lookup reads of one attribute) does not hide the one item another attribute names, and a search on the
/// shared attribute alone still finds them all.
@Suite("Secret Service attribute lookups", .timeLimit(.minutes(10)))
struct AttributeLookupTests {
    @Test(arguments: ProviderTransport.allCases)
    func aSharedAttributeDoesNotHideTheOneItemAnotherNames(_ transport: ProviderTransport) throws {
        let session = try SecretServiceSession(transport)
        try session.startProvider()
        let ran = try session.python(
            """
            session = call('OpenSession', '(sv)', ('plain', GLib.Variant('s', ''))).unpack()[1]
            for number in range(70):
                properties = {'org.freedesktop.Secret.Item.Label': GLib.Variant('s', 'item %d' % number),
                              'org.freedesktop.Secret.Item.Attributes': GLib.Variant('a{ss}', {'service': 'bench', 'account': 'user-%d' % number})}
                call('CreateItem', '(a{sv}(oayays)b)', (properties, (session, b'', b'secret-%d' % number, 'text/plain'), False),
                     path='/org/freedesktop/secrets/aliases/default', interface='Collection')
            one = call('SearchItems', '(a{ss})', ({'service': 'bench', 'account': 'user-42'},)).unpack()[0]
            print(len(one), bytes(call('GetSecrets', '(aoo)', (one, session)).unpack()[0][one[0]][2]).decode())
            print(len(call('SearchItems', '(a{ss})', ({'service': 'bench', 'account': 'user-70'},)).unpack()[0]))
            print(len(call('SearchItems', '(a{ss})', ({'service': 'bench'},)).unpack()[0]))
            print(len(call('SearchItems', '(a{ss})', ({'service': 'other', 'account': 'user-42'},)).unpack()[0]))
            """)
        try #require(ran.status == 0, "\(ran.errors)")
        #expect(ran.output == "1 secret-42\n0\n70\n0\n")
    }
}
