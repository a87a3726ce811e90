import Foundation
import Testing

/// The Service interface called directly (`gdbus call`), for what `secret-tool` does not show: the `plain`
/// algorithm, refusals clients rely on, aliases, and unlocking a keychain that is not locked.
@Suite("org.freedesktop.Secret.Service through gdbus")
struct ServiceInterfaceTests {
    private static let service = "/org/freedesktop/secrets"

    @Test
    func aPlainSessionCarriesTheSecretAsIs() throws {
        let session = try SecretServiceSession(.embedded)
        try session.startProvider()
        try session.store(label: "Example", ["service", "example.org"], secret: "hunter2")

        let opened = try session.call(Self.service, "org.freedesktop.Secret.Service.OpenSession", ["plain", "<''>"])
        let sessionPath = try #require(opened.output.firstMatch(of: /'(\/org\/freedesktop\/secrets\/session\/\w+)'/)?.1)
        #expect(opened.output.hasPrefix("(<''>, objectpath '"))
        let searched = try session.call(Self.service, "org.freedesktop.Secret.Service.SearchItems", ["{'service': 'example.org'}"])
        let item = try #require(searched.output.firstMatch(of: /'(\/org\/freedesktop\/secrets\/collection\/login\/[0-9a-f]{32})'/)?.1)
        #expect(searched.output == "([objectpath '\(item)'], @ao [])\n")

        let secrets = try session.call(Self.service, "org.freedesktop.Secret.Service.GetSecrets", ["['\(item)']", String(sessionPath)])
        #expect(
            secrets.output
                == "({objectpath '\(item)': (objectpath '\(sessionPath)', @ay [], [byte 0x68, 0x75, 0x6e, 0x74, 0x65, 0x72, 0x32], 'text/plain')},)\n"
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
        #expect(try session.call(Self.service, "org.freedesktop.Secret.Service.ReadAlias", ["default"]).output
            == "(objectpath '/org/freedesktop/secrets/collection/login',)\n")
        #expect(try session.call(Self.service, "org.freedesktop.Secret.Service.ReadAlias", ["unknown"]).output == "(objectpath '/',)\n")
    }

    @Test
    func unlockingAnUnlockedKeychainNeedsNoPrompt() throws {
        let session = try SecretServiceSession(.embedded)
        try session.startProvider()
        let item = "/org/freedesktop/secrets/collection/login"
        #expect(try session.call(Self.service, "org.freedesktop.Secret.Service.Unlock", ["['\(item)']"]).output
            == "([objectpath '\(item)'], objectpath '/')\n")
        // A keychain without a passcode cannot lock: nothing is reported locked.
        #expect(try session.call(Self.service, "org.freedesktop.Secret.Service.Lock", ["['\(item)']"]).output == "(@ao [], objectpath '/')\n")
    }

    @Test
    func aMissingItemIsNoSuchObject() throws {
        let session = try SecretServiceSession(.embedded)
        try session.startProvider()
        let opened = try session.call(Self.service, "org.freedesktop.Secret.Service.OpenSession", ["plain", "<''>"])
        let sessionPath = try #require(opened.output.firstMatch(of: /'(\/org\/freedesktop\/secrets\/session\/\w+)'/)?.1)
        let missing = try session.call(
            "/org/freedesktop/secrets/collection/login/0123456789abcdef0123456789abcdef", "org.freedesktop.Secret.Item.GetSecret",
            [String(sessionPath)])
        #expect(missing.errors.contains("org.freedesktop.Secret.Error.NoSuchObject"))
    }
}
