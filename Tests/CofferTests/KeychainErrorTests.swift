import Coffer
import Foundation
import Testing

@Suite("KeychainError and descriptions never show secrets", .timeLimit(.minutes(10)))
struct KeychainErrorTests {
    static let secret = "correct horse battery staple"

    @Test func errorKeepsTheStatusAndRedactsTheQuery() async throws {
        let temporary = TemporaryKeychain()
        let item = GenericPassword(service: "svc", account: "acct", value: bytes(Self.secret))
        _ = try await temporary.keychain.add(item)
        let error = try #require(await #expect(throws: KeychainError.self) { try await temporary.keychain.add(item) })
        #expect(error.status == .duplicateItem)
        #expect(error.code == -25299)
        #expect(error.name == "errSecDuplicateItem")
        #expect(error.explanation == KeychainStatus.duplicateItem.explanation)
        let text = error.description
        #expect(text.contains("SecItemAdd"))
        #expect(text.contains("errSecDuplicateItem"))
        #expect(text.contains("-25299"))
        #expect(text.contains(#"svce: "svc""#))
        #expect(text.contains("v_Data: <redacted \(Self.secret.utf8.count) bytes>"))
        #expect(!text.contains(Self.secret))
        #expect(!String(reflecting: error).contains(Self.secret))
    }

    @Test func updateErrorsRedactTheNewSecret() async throws {
        let temporary = TemporaryKeychain()
        let error = try #require(
            await #expect(throws: KeychainError.self) {
                try await temporary.keychain.update(
                    matching: GenericPasswordQuery(service: "missing"), changes: GenericPasswordChanges(value: bytes(Self.secret)))
            })
        #expect(error.status == .itemNotFound)
        #expect(error.redactedChanges?.contains("<redacted") == true)
        #expect(!error.description.contains(Self.secret))
    }

    @Test func itemDescriptionsShowTheSecretOnlyByLength() {
        var item = InternetPassword(server: "example.com", account: "alice", value: bytes(Self.secret), protocol: .https)
        item.label = "Example"
        for text in [item.description, String(reflecting: item), "\(item)"] {
            #expect(text.contains("example.com"))
            #expect(text.contains("<redacted \(Self.secret.utf8.count) bytes>"))
            #expect(!text.contains(Self.secret))
        }
        var dumped = ""
        dump(item, to: &dumped)
        #expect(!dumped.contains(Self.secret))
        #expect(dumped.contains("Example"))
        let generic = GenericPassword(service: "s", account: "a", value: bytes(Self.secret))
        var dumpedGeneric = ""
        dump(generic, to: &dumpedGeneric)
        #expect(!dumpedGeneric.contains(Self.secret))
        #expect(!generic.description.contains(Self.secret))
    }
}
