import CofferTestSupport
import Coffer
import Foundation
import Testing

@Suite("Internet passwords through the Swift API", .timeLimit(.minutes(10)))
struct InternetPasswordTests {
    private static func item(
        server: String = "example.com", account: String = "alice", secret: String = "pw",
        protocol: InternetProtocol? = .https
    ) -> InternetPassword {
        InternetPassword(
            server: server, account: account, value: bytes(secret), securityDomain: "realm",
            protocol: `protocol`, authenticationType: .htmlForm, port: 443, path: "/login")
    }

    @Test(arguments: Transport.allCases) func addThenFindRoundTripsEveryAttribute(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        var item = Self.item()
        item.label = "Example"
        item.comment = "c"
        item.kind = "Web form password"
        item.creator = 1
        item.type = 2
        item.isInvisible = false
        item.isNegative = true
        item.accessibility = .whenUnlockedThisDeviceOnly
        let added = try await temporary.keychain.add(item)
        #expect(added.persistentReference?.data.prefix(4) == bytes("inet"))
        let found = try #require(
            try await temporary.keychain.item(matching: InternetPasswordQuery(server: "example.com", account: "alice")))
        #expect(found == added)
        #expect(found.protocol == .https)
        #expect(found.authenticationType == .htmlForm)
        #expect(found.port == 443)
        #expect(found.path == "/login")
        #expect(found.securityDomain == "realm")
        #expect(found.isNegative == true)
        #expect(found.accessibility == .whenUnlockedThisDeviceOnly)
        #expect(found.value == bytes("pw"))
    }

    @Test func protocolAndAuthenticationTypeUseApplesCodes() {
        #expect(InternetProtocol.https.rawValue == "htps")
        #expect(InternetProtocol.ftp.rawValue == "ftp ")
        #expect(InternetProtocol(code: "ssh ") == .ssh)
        #expect(InternetProtocol(code: "zzzz") == .other("zzzz"))
        #expect(InternetProtocol.knownCases.count == 31)
        #expect(AuthenticationType.httpBasic.rawValue == "http")
        #expect(AuthenticationType.default.rawValue == "dflt")
        #expect(AuthenticationType(code: "form") == .htmlForm)
        #expect(AuthenticationType(code: "what") == .other("what"))
    }

    @Test(arguments: Transport.allCases) func unknownProtocolCodesRoundTrip(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        _ = try await temporary.keychain.add(Self.item(protocol: InternetProtocol(code: "zzzz")))
        let found = try await temporary.keychain.item(matching: InternetPasswordQuery(protocol: .other("zzzz")))
        #expect(found?.protocol == .other("zzzz"))
    }

    @Test(arguments: Transport.allCases) func primaryKeyIncludesTheProtocol(transport: Transport) async throws {  // §1.4
        let temporary = TemporaryKeychain(transport: transport)
        _ = try await temporary.keychain.add(Self.item())
        let error = await #expect(throws: KeychainError.self) { try await temporary.keychain.add(Self.item(secret: "again")) }
        #expect(error?.status == .duplicateItem)
        #expect(error?.code == -25299)
        _ = try await temporary.keychain.add(Self.item(protocol: .http))
        #expect(try await temporary.keychain.items(matching: InternetPasswordQuery(server: "example.com")).count == 2)
    }

    /// `kSecMatchHostOrSubdomainOfHost`.
    @Test(arguments: Transport.allCases) func hostOrSubdomainMatchesTheHostAndItsSubdomains(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        for server in ["example.com", "api.example.com", "notexample.com"] {
            _ = try await temporary.keychain.add(Self.item(server: server))
        }
        var query = InternetPasswordQuery()
        query.hostOrSubdomainOf = "example.com"
        let servers = try await temporary.keychain.items(matching: query).map(\.server)
        #expect(Set(servers) == ["example.com", "api.example.com"])
        // Match keys are for reads only (rules U2, D1).
        let error = await #expect(throws: KeychainError.self) { try await temporary.keychain.delete(matching: query) }
        #expect(error?.status == .param)
    }

    @Test(arguments: Transport.allCases) func updateAndDeleteRoundTrip(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        _ = try await temporary.keychain.add(Self.item())
        try await temporary.keychain.update(
            matching: InternetPasswordQuery(server: "example.com", protocol: .https),
            changes: InternetPasswordChanges(value: bytes("new"), port: 8443))
        let found = try #require(try await temporary.keychain.item(matching: InternetPasswordQuery(server: "example.com")))
        #expect(found.value == bytes("new"))
        #expect(found.port == 8443)
        try await temporary.keychain.delete(matching: InternetPasswordQuery(server: "example.com"))
        #expect(try await temporary.keychain.item(matching: InternetPasswordQuery(server: "example.com")) == nil)
        let error = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.delete(matching: InternetPasswordQuery(server: "example.com"))
        }
        #expect(error?.status == .itemNotFound)
    }

    @Test(arguments: Transport.allCases) func setUpdatesOnlyTheItemWithTheSamePrimaryKey(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        _ = try await temporary.keychain.add(InternetPassword(server: "h", account: "a", value: bytes("plain")))
        _ = try await temporary.keychain.add(InternetPassword(server: "h", account: "a", value: bytes("https"), protocol: .https))
        // No protocol: the item stored without one (ptcl 0), not the HTTPS one.
        try await temporary.keychain.set(InternetPassword(server: "h", account: "a", value: bytes("plain 2")))
        let plain = try await temporary.keychain.items(matching: InternetPasswordQuery(server: "h"))
            .sorted { $0.value.count < $1.value.count }
        #expect(plain.map(\.value) == [bytes("https"), bytes("plain 2")])
        #expect(plain.first?.protocol == .https)
        #expect(plain.last?.protocol == nil)
    }
}
