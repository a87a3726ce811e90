import Coffer
import Foundation
import Testing

@Suite("Persistent references through the Swift API", .timeLimit(.minutes(10)))
struct PersistentReferenceTests {
    @Test func referenceIsStableAcrossUpdatesAndFetchesAndDeletes() async throws {  // §9
        let temporary = TemporaryKeychain()
        let added = try await temporary.keychain.add(GenericPassword(service: "s", account: "a", value: bytes("one")))
        let reference = try #require(added.persistentReference)
        // Change the secret and a primary-key attribute.
        try await temporary.keychain.update(
            matching: GenericPasswordQuery(service: "s", account: "a"),
            changes: GenericPasswordChanges(value: bytes("two"), account: "b"))
        let found = try #require(try await temporary.keychain.item(matching: GenericPasswordQuery(persistentReference: reference)))
        #expect(found.persistentReference == reference)
        #expect(found.account == "b")
        #expect(found.value == bytes("two"))
        // Update and delete by reference.
        try await temporary.keychain.update(
            matching: GenericPasswordQuery(persistentReference: reference), changes: GenericPasswordChanges(label: "L"))
        #expect(try await temporary.keychain.attributes(matching: GenericPasswordQuery(persistentReference: reference)).first?.label == "L")
        try await temporary.keychain.delete(matching: GenericPasswordQuery(persistentReference: reference))
        #expect(try await temporary.keychain.item(matching: GenericPasswordQuery(persistentReference: reference)) == nil)
    }

    @Test func referenceFromItsBytesWorksForInternetPasswords() async throws {
        let temporary = TemporaryKeychain()
        let added = try await temporary.keychain.add(InternetPassword(server: "h", account: "a", value: bytes("x")))
        let bytes = try #require(added.persistentReference?.data)
        let reference = try #require(PersistentReference(data: bytes))
        #expect(try await temporary.keychain.item(matching: InternetPasswordQuery(persistentReference: reference))?.server == "h")
    }

    @Test func readingByReferenceWithAnAttributeFilterIsAParameterError() async throws {  // rule C4
        let temporary = TemporaryKeychain()
        let added = try await temporary.keychain.add(GenericPassword(service: "s", account: "a", value: bytes("x")))
        var query = GenericPasswordQuery(persistentReference: try #require(added.persistentReference))
        query.service = "s"
        let error = await #expect(throws: KeychainError.self) { try await temporary.keychain.item(matching: query) }
        #expect(error?.status == .param)
        // Delete accepts the extra filter (§9).
        try await temporary.keychain.delete(matching: query)
    }
}
