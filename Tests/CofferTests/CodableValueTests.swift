import Coffer
import Foundation
import Testing

@Suite("Codable values through the Swift API", .timeLimit(.minutes(10)))
struct CodableValueTests {
    struct Credentials: Codable, Equatable {
        var user: String
        var token: String
        var expires: Int
    }

    @Test func valueRoundTripsAsJSON() async throws {
        let temporary = TemporaryKeychain()
        let credentials = Credentials(user: "alice", token: "tok-123", expires: 42)
        try await temporary.keychain.set(credentials, service: "com.example", account: "alice")
        #expect(try await temporary.keychain.value(Credentials.self, service: "com.example", account: "alice") == credentials)
        // Stored as a generic password whose secret is the JSON.
        let item = try await temporary.keychain.item(matching: GenericPasswordQuery(service: "com.example", account: "alice"))
        #expect(item?.value == bytes(#"{"expires":42,"token":"tok-123","user":"alice"}"#))
        // Set again replaces it.
        let renewed = Credentials(user: "alice", token: "tok-456", expires: 43)
        try await temporary.keychain.set(renewed, service: "com.example", account: "alice")
        #expect(try await temporary.keychain.value(Credentials.self, service: "com.example", account: "alice") == renewed)
    }

    @Test func missingValueIsNil() async throws {
        let temporary = TemporaryKeychain()
        #expect(try await temporary.keychain.value(Credentials.self, service: "none", account: "none") == nil)
    }

    @Test func wrongTypeIsADecodeErrorThatNamesTheTypeButNotTheSecret() async throws {
        let temporary = TemporaryKeychain()
        try await temporary.keychain.set(["token": "super-secret-token"], service: "s", account: "a")
        let error = await #expect(throws: KeychainError.self) {
            _ = try await temporary.keychain.value(Credentials.self, service: "s", account: "a")
        }
        #expect(error?.status == .decode)
        #expect(error?.code == -26275)
        #expect(error?.operation == .decode)
        let text = error?.description ?? ""
        #expect(text.contains("Credentials"))
        #expect(text.contains("user"))
        #expect(!text.contains("super-secret-token"))
    }

    @Test func notJSONIsADecodeError() async throws {
        let temporary = TemporaryKeychain()
        try await temporary.keychain.set(GenericPassword(service: "s", account: "a", value: bytes("plain secret text")))
        let error = await #expect(throws: KeychainError.self) {
            _ = try await temporary.keychain.value(Int.self, service: "s", account: "a")
        }
        #expect(error?.status == .decode)
        let text = error?.description ?? ""
        #expect(!text.contains("plain secret text"))
    }
}
