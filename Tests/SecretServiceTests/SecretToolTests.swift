import Foundation
import Testing

/// `secret-tool` (libsecret) against `coffer-secret-service` on a private session bus, on both transports:
/// what it prints must be what it prints against gnome-keyring.
@Suite("secret-tool against coffer-secret-service", .timeLimit(.minutes(10)))
struct SecretToolTests {
    @Test(arguments: ProviderTransport.allCases)
    func lookupReturnsTheStoredSecret(_ transport: ProviderTransport) throws {
        let session = try SecretServiceSession(transport)
        try session.startProvider()
        try session.store(label: "Example", ["service", "example.org", "user", "alice"], secret: "hunter2")

        let found = try session.secretTool(["lookup", "service", "example.org", "user", "alice"])
        #expect(found.status == 0)
        #expect(found.output == "hunter2")
        // Any subset of the attributes finds the item.
        #expect(try session.secretTool(["lookup", "user", "alice"]).output == "hunter2")
    }

    @Test(arguments: ProviderTransport.allCases)
    func lookupOfNothingFails(_ transport: ProviderTransport) throws {
        let session = try SecretServiceSession(transport)
        try session.startProvider()
        try session.store(label: "Example", ["service", "example.org", "user", "alice"], secret: "hunter2")

        let missing = try session.secretTool(["lookup", "service", "example.org", "user", "bob"])
        #expect(missing.status == 1)
        #expect(missing.output == "")
    }

    @Test(arguments: ProviderTransport.allCases)
    func searchPrintsTheItemsLabelSecretDatesAndAttributes(_ transport: ProviderTransport) throws {
        let session = try SecretServiceSession(transport)
        try session.startProvider()
        try session.store(label: "Example label", ["service", "example.org", "user", "alice"], secret: "hunter2")

        let searched = try session.secretTool(["search", "--all", "service", "example.org"])
        #expect(searched.status == 0, "\(searched.errors)")
        let lines = searched.output.split(separator: "\n").map(String.init)
        try #require(lines.count == 5, "\(lines)")
        // secret-tool prints the item's path below its collection's.
        #expect(lines[0].wholeMatch(of: /\[\/[0-9a-f]{32}\]/) != nil, "\(lines[0])")
        #expect(lines[1] == "label = Example label")
        #expect(lines[2] == "secret = hunter2")
        #expect(lines[3].wholeMatch(of: /created = \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/) != nil, "\(lines[3])")
        #expect(lines[4].wholeMatch(of: /modified = \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/) != nil, "\(lines[4])")
        // secret-tool prints the attributes on standard error.
        let attributes = Set(searched.errors.split(separator: "\n").map(String.init))
        #expect(attributes == ["attribute.service = example.org", "attribute.user = alice"])
    }

    @Test(arguments: ProviderTransport.allCases)
    func storingTheSameAttributesReplacesTheItem(_ transport: ProviderTransport) throws {
        let session = try SecretServiceSession(transport)
        try session.startProvider()
        try session.store(label: "First", ["service", "example.org", "user", "alice"], secret: "first secret")
        try session.store(label: "Second", ["service", "example.org", "user", "alice"], secret: "second secret")
        // Other attributes make another item.
        try session.store(label: "Other", ["service", "example.org", "user", "bob"], secret: "bob's secret")

        let searched = try session.secretTool(["search", "--all", "service", "example.org", "user", "alice"])
        let labels = searched.output.split(separator: "\n").filter { $0.hasPrefix("label = ") }
        #expect(labels == ["label = Second"])
        #expect(searched.output.contains("secret = second secret\n"))
        #expect(try session.secretTool(["lookup", "user", "alice"]).output == "second secret")
        #expect(try session.secretTool(["lookup", "user", "bob"]).output == "bob's secret")
    }

    @Test(arguments: ProviderTransport.allCases)
    func clearDeletesOnlyTheMatchingItems(_ transport: ProviderTransport) throws {
        let session = try SecretServiceSession(transport)
        try session.startProvider()
        try session.store(label: "Alice", ["service", "example.org", "user", "alice"], secret: "alice's secret")
        try session.store(label: "Bob", ["service", "example.org", "user", "bob"], secret: "bob's secret")

        let cleared = try session.secretTool(["clear", "user", "alice"])
        #expect(cleared.status == 0, "\(cleared.errors)")
        #expect(try session.secretTool(["lookup", "user", "alice"]).status == 1)
        #expect(try session.secretTool(["lookup", "user", "bob"]).output == "bob's secret")
    }

    @Test(arguments: ProviderTransport.allCases)
    func itemsOutliveTheProvider(_ transport: ProviderTransport) throws {
        let session = try SecretServiceSession(transport)
        try session.startProvider()
        try session.store(label: "Kept", ["service", "example.org", "user", "alice"], secret: "kept secret")
        session.stopProvider()

        try session.startProvider()
        let found = try session.secretTool(["lookup", "service", "example.org", "user", "alice"])
        #expect(found.output == "kept secret")
        let searched = try session.secretTool(["search", "--all", "user", "alice"])
        #expect(searched.output.contains("label = Kept\n"))
    }

    @Test
    func theProviderNeverWritesSecretsAttributesOrLabels() throws {
        let session = try SecretServiceSession(.embedded)
        try session.startProvider()
        try session.store(label: "Private label", ["service", "private-service", "user", "private-user"], secret: "private-secret")
        _ = try session.secretTool(["lookup", "user", "private-user"])
        _ = try session.secretTool(["search", "--all", "user", "private-user"])
        _ = try session.secretTool(["clear", "user", "private-user"])
        session.stopProvider()

        for text in ["Private label", "private-service", "private-user", "private-secret"] {
            #expect(!session.providerErrors.contains(text))
        }
    }

    @Test
    func aSecondProviderCannotTakeTheName() throws {
        let session = try SecretServiceSession(.embedded)
        try session.startProvider()
        #expect(throws: SecretServiceSession.Failure.self) { try session.startProvider() }
    }
}
