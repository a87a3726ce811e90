import Foundation
import Testing

/// The provider started on demand: a bus whose service directory holds an activation file for the built
/// `coffer-secret-service` starts it on `secret-tool`'s first call, with nothing started beforehand.
@Suite("coffer-secret-service started by D-Bus activation", .timeLimit(.minutes(10)))
struct ActivationTests {
    @Test
    func theFirstSecretToolCallStartsTheProvider() throws {
        let session = try SecretServiceSession(.embedded, activatable: true)
        #expect(try session.providerPID() == nil, "nothing owns the name before the first call")

        try session.store(label: "Example", ["service", "example.org", "user", "alice"], secret: "hunter2")
        let provider = try #require(try session.providerPID(), "the store started the provider")
        let found = try session.secretTool(["lookup", "service", "example.org", "user", "alice"])
        #expect(found.status == 0, "\(found.errors)")
        #expect(found.output == "hunter2")
        // The same provider answered both calls: activation starts it once.
        #expect(try session.providerPID() == provider)
    }
}
