import CofferTestSupport
import Coffer
import Foundation
import Testing

/// A refused call says why, through either transport: the rule, the key and the reason reach
/// `KeychainError`, while the status stays Apple's.
@Suite("Rejections carry their reason", .timeLimit(.minutes(10)))
struct RejectionReasonTests {
    @Test(arguments: Transport.allCases)
    func aLimitOnDeleteNamesTheRuleAndTheKey(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        var query = GenericPasswordQuery(service: "svc", account: "acct")
        query.limit = 1
        let error = try #require(await #expect(throws: KeychainError.self) { try await temporary.keychain.delete(matching: query) })
        #expect(error.status == .param)
        let reason = try #require(error.reason)
        #expect(reason.hasPrefix("D1: "))
        #expect(reason.contains("kSecMatchLimit"))
        #expect(error.description.contains(reason))
    }

    @Test(arguments: Transport.allCases)
    func anOversizedSecretSaysHowLargeWithoutShowingIt(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let secret = Data(repeating: 0x41, count: 16 * 1024 * 1024 + 1)
        let item = GenericPassword(service: "svc", account: "big", value: secret)
        let error = try #require(await #expect(throws: KeychainError.self) { try await temporary.keychain.add(item) })
        #expect(error.status == .param)
        let reason = try #require(error.reason)
        #expect(reason.contains("kSecValueData"))
        #expect(reason.contains("16777217"))
        #expect(!error.description.contains("AAAAAAAA"))
    }
}
