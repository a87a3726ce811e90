import Foundation
import Testing
import TestProcesses

/// Python's Secret Service clients against `coffer-secret-service` on a private session bus, on both transports:
/// SecretStorage (over jeepney, with a `dh-ietf1024-sha256-aes128-cbc-pkcs7` session) and `keyring` with its
/// SecretService backend. Python is one program and `secret-tool` another: neither sees the other's items.
@Suite("SecretStorage and python keyring against coffer-secret-service", .timeLimit(.minutes(10)))
struct PythonClientTests {
    static let packages = ["python3-secretstorage", "python3-keyring"]

    private static func python(_ session: SecretServiceSession, _ script: String) throws -> SecretServiceSession.Outcome {
        let ran = try session.run(["/usr/bin/python3", "-c", script])
        #expect(ran.status == 0, "\(ran.errors)")
        return ran
    }

    @Test(arguments: ProviderTransport.allCases)
    func secretStorageStoresReadsChangesAndDeletes(_ transport: ProviderTransport) throws {
        try DebianPackages.ensureInstalled(Self.packages)
        let session = try SecretServiceSession(transport)
        try session.startProvider()
        let stored = try Self.python(
            session,
            """
            from secretstorage import dbus_init, get_default_collection, search_items
            connection = dbus_init()
            collection = get_default_collection(connection)
            collection.create_item('Py item', {'service': 'py.example', 'user': 'grace'}, b'py-secret', replace=True)
            found = list(collection.search_items({'service': 'py.example'}))
            item = found[0]
            print(len(found), item.get_label(), item.get_secret().decode(), sorted(item.get_attributes().items()))
            item.set_label('Renamed')
            item.set_secret(b'new \\x00 secret')
            item.set_attributes({'service': 'py.example', 'user': 'grace', 'port': '8080'})
            again = list(search_items(connection, {'port': '8080'}))
            print(len(again), again[0].get_label(), again[0].get_secret(), again[0].get_secret_content_type(), collection.is_locked())
            """)
        #expect(
            stored.output == """
                1 Py item py-secret [('service', 'py.example'), ('user', 'grace')]
                1 Renamed b'new \\x00 secret' text/plain False

                """)

        // secret-tool is another program: Python's item does not exist for it.
        let other = try session.secretTool(["lookup", "service", "py.example"])
        #expect(other.status == 1)
        #expect(other.output == "")
        #expect(try session.secretTool(["search", "--all", "user", "grace"]).output == "")
        // And Python does not see secret-tool's.
        try session.store(label: "Tool item", ["service", "tool.example"], secret: "tool-secret")

        let deleted = try Self.python(
            session,
            """
            from secretstorage import dbus_init, get_default_collection, search_items
            connection = dbus_init()
            print(len(list(search_items(connection, {'service': 'tool.example'}))))
            for item in search_items(connection, {'service': 'py.example'}):
                item.delete()
            print(len(list(search_items(connection, {'service': 'py.example'}))))
            """)
        #expect(deleted.output == "0\n0\n")
        #expect(try session.secretTool(["lookup", "service", "tool.example"]).output == "tool-secret")
    }

    @Test(arguments: ProviderTransport.allCases)
    func keyringSetsGetsAndDeletesPasswords(_ transport: ProviderTransport) throws {
        try DebianPackages.ensureInstalled(Self.packages)
        let session = try SecretServiceSession(transport)
        try session.startProvider()
        let backend = """
            from keyring import delete_password, get_password, set_keyring, set_password
            from keyring.backends.SecretService import Keyring
            from keyring.errors import PasswordDeleteError
            set_keyring(Keyring())

            """
        let set = try Self.python(
            session,
            backend + """
                set_password('py.example', 'grace', 'kr-secret')
                set_password('py.example', 'alan', 'other-secret')
                set_password('py.example', 'grace', 'kr-secret-2')
                print(get_password('py.example', 'grace'), get_password('py.example', 'alan'))
                print(get_password('py.example', 'nobody'))
                """)
        #expect(set.output == "kr-secret-2 other-secret\nNone\n")

        // A second program (secret-tool) sees none of it.
        #expect(try session.secretTool(["lookup", "service", "py.example", "username", "grace"]).status == 1)
        #expect(try session.secretTool(["search", "--all", "service", "py.example"]).output == "")

        // Another run of Python (the same program) still reads it, and deletes it.
        let deleted = try Self.python(
            session,
            backend + """
                print(get_password('py.example', 'grace'))
                delete_password('py.example', 'grace')
                print(get_password('py.example', 'grace'), get_password('py.example', 'alan'))
                try:
                    delete_password('py.example', 'grace')
                except PasswordDeleteError:
                    print('already deleted')
                """)
        #expect(deleted.output == "kr-secret-2\nNone other-secret\nalready deleted\n")
    }
}
