import Foundation
import Testing

/// `coffer import-secret-service` (which runs `coffer-secret-service --import`) copying gnome-keyring's items
/// while it owns the name, then Coffer's provider serving them, on both transports.
@Suite("coffer import-secret-service from gnome-keyring", .timeLimit(.minutes(10)))
struct ImportTests {
    /// Python (SecretStorage) storing a binary secret in the default collection.
    private static let storeBinary = """
        from secretstorage import dbus_init, get_default_collection, search_items
        collection = get_default_collection(dbus_init())
        collection.create_item('Key file', {'application': 'ssh', 'file': 'id_ed25519'}, bytes(range(256)),
                               content_type='application/octet-stream')
        """

    /// Python (SecretStorage) printing every item of the default collection it sees, by label: attributes, secret
    /// and creation date, then how many there are.
    private static let dump = """
        from secretstorage import dbus_init, get_default_collection, search_items
        collection = get_default_collection(dbus_init())
        items = sorted(collection.get_all_items(), key=lambda item: item.get_label())
        for item in items:
            print(item.get_label(), sorted(item.get_attributes().items()), item.get_secret(), item.get_created())
        print(len(items))
        """

    private static func summary(found: Int, copied: Int, present: Int, notCopied: Int) -> String {
        "coffer-secret-service: \(found) items found from \(GnomeKeyring.executable): \(copied) copied, \(present) already in Coffer, "
            + "\(notCopied) not copied (secrets read in a dh-ietf1024-sha256-aes128-cbc-pkcs7 session)"
    }

    @Test(arguments: ProviderTransport.allCases)
    func everyItemArrivesOnceWithItsLabelAttributesAndSecret(_ transport: ProviderTransport) throws {
        let session = try SecretServiceSession(transport)
        let keyring = try GnomeKeyring(on: session)
        try session.store(label: "Mail", ["service", "example.org", "user", "ada"], secret: "hunter2")
        try session.store(label: "Bank", ["service", "bank.example", "user", "ada", "account", "42"], secret: "correct horse battery staple")
        let stored = try session.run(["/usr/bin/python3", "-c", Self.storeBinary])
        try #require(stored.status == 0, "\(stored.errors)")
        // What gnome-keyring holds, as a client sees it (it adds xdg:schema to some items' attributes itself).
        let source = try session.run(["/usr/bin/python3", "-c", Self.dump])
        try #require(source.status == 0, "\(source.errors)")
        try #require(source.output.hasSuffix("\n3\n"), "\(source.output)")

        let first = try session.coffer(["import-secret-service"])
        #expect(first.status == 0)
        #expect(first.errors == Self.summary(found: 3, copied: 3, present: 0, notCopied: 0) + "\n")
        // Again: everything is there already, nothing is duplicated.
        let second = try session.coffer(["import-secret-service"])
        #expect(second.status == 0)
        #expect(second.errors == Self.summary(found: 3, copied: 0, present: 3, notCopied: 0) + "\n")

        try keyring.stop()
        try session.startProvider()
        // Items without an owner: Python and secret-tool, two programs, both see them, exactly as they were.
        let copied = try session.run(["/usr/bin/python3", "-c", Self.dump])
        #expect(copied.status == 0, "\(copied.errors)")
        #expect(copied.output == source.output)
        #expect(try session.secretTool(["lookup", "service", "example.org", "user", "ada"]).output == "hunter2")
        #expect(try session.secretTool(["lookup", "account", "42"]).output == "correct horse battery staple")
        let bank = try session.secretTool(["search", "--all", "service", "bank.example"])
        #expect(bank.output.contains("\nlabel = Bank\nsecret = correct horse battery staple\n"))
        #expect(bank.errors.contains("attribute.account = 42\n"))
    }

    @Test
    func forGivesTheCopiesToOneProgram() throws {
        let session = try SecretServiceSession(.embedded)
        let keyring = try GnomeKeyring(on: session)
        try session.store(label: "Mail", ["service", "example.org", "user", "ada"], secret: "hunter2")
        let imported = try session.coffer(["import-secret-service", "--for", "/usr/bin/secret-tool"])
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.errors == Self.summary(found: 1, copied: 1, present: 0, notCopied: 0).replacingOccurrences(of: "1 items", with: "1 item") + "\n")

        try keyring.stop()
        try session.startProvider()
        #expect(try session.secretTool(["lookup", "service", "example.org"]).output == "hunter2")
        // Python is another program: the copy is not its.
        let read = try session.run(["/usr/bin/python3", "-c", Self.dump])
        #expect(read.output == "0\n", "\(read.errors)")
    }

    @Test
    func progressShowsOnATerminal() throws {
        let session = try SecretServiceSession(.embedded)
        let keyring = try GnomeKeyring(on: session)
        try session.store(label: "Mail", ["service", "example.org", "user", "ada"], secret: "hunter2")
        try session.store(label: "Bank", ["service", "bank.example", "user", "ada"], secret: "s3cret")
        // script(1) (bsdutils) runs the import on a pseudo-terminal and copies what it shows.
        let coffer = SecretServiceSession.executable("coffer")
        let shown = try session.run(["/usr/bin/script", "--quiet", "--return", "--command", "\(coffer) import-secret-service", "/dev/null"])
        #expect(shown.status == 0, "\(shown.errors)")
        #expect(
            shown.output == "\rcopied 1 of 2 (0 already in Coffer, 0 not copied)\rcopied 2 of 2 (0 already in Coffer, 0 not copied)\r\n"
                + Self.summary(found: 2, copied: 2, present: 0, notCopied: 0) + "\r\n")
        try keyring.stop()
    }

    @Test
    func aLockedCollectionThatStaysLockedIsReported() throws {
        let session = try SecretServiceSession(.embedded)
        let keyring = try GnomeKeyring(on: session)
        try session.store(label: "Mail", ["service", "example.org", "user", "ada"], secret: "hunter2")
        try session.store(label: "Bank", ["service", "bank.example", "user", "ada"], secret: "s3cret")
        // Locked, and with no prompter on this bus gnome-keyring's unlock prompt fails.
        let locked = try session.run(
            [
                "/usr/bin/python3", "-c",
                "from secretstorage import dbus_init, get_default_collection\nc = get_default_collection(dbus_init())\nc.lock()\nprint(c.is_locked())",
            ])
        try #require(locked.output == "True\n", "\(locked.errors)")

        let imported = try session.coffer(["import-secret-service"])
        #expect(imported.status == 1)
        let lines = imported.errors.split(separator: "\n").map(String.init)
        #expect(lines.first == Self.summary(found: 2, copied: 0, present: 0, notCopied: 2))
        #expect(
            Set(lines.dropFirst()) == [
                "coffer-secret-service: not copied: /org/freedesktop/secrets/collection/login/1: its collection is locked and the provider did not unlock it",
                "coffer-secret-service: not copied: /org/freedesktop/secrets/collection/login/2: its collection is locked and the provider did not unlock it",
            ])
        // Nothing arrived, and the output names no label, attribute or secret.
        for text in ["Mail", "Bank", "example.org", "hunter2", "s3cret"] { #expect(!imported.errors.contains(text)) }
        try keyring.stop()
        try session.startProvider()
        #expect(try session.secretTool(["lookup", "user", "ada"]).status == 1)
    }

    @Test
    func withoutAnotherProviderNothingIsImported() throws {
        let session = try SecretServiceSession(.embedded)
        let alone = try session.coffer(["import-secret-service"])
        #expect(alone.status == 1)
        #expect(alone.errors == "coffer-secret-service: no Secret Service provider is running: nothing owns org.freedesktop.secrets\n")

        try session.startProvider()
        let itself = try session.coffer(["import-secret-service"])
        #expect(itself.status == 1)
        #expect(
            itself.errors
                == "coffer-secret-service: org.freedesktop.secrets is served by coffer-secret-service itself: stop it and start the provider to import from\n")

        let wrong = try session.run([SecretServiceSession.executable("coffer-secret-service"), "--import", "--for"])
        #expect(wrong.status == 2)
        #expect(wrong.errors == "coffer-secret-service: unexpected arguments\nusage: coffer-secret-service --import [--for PROGRAM-PATH]\n")
    }
}
