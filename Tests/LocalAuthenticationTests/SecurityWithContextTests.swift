import Foundation
import LocalAuthentication
import Security
import Testing

/// `SecItem…` calls carrying an `LAContext` under `kSecUseAuthenticationContext`, through the daemon: the
/// context's proof opens a `.userPresence` item without a second prompt (reference §6.4).
@Suite("Security with an LAContext, through the daemon", .serialized, .timeLimit(.minutes(10)))
struct SecurityWithContextTests {
    private static func item(_ extra: [String: Any] = [:]) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "la", kSecAttrAccount as String: "token",
        ]
        query.merge(extra) { _, new in new }
        return query
    }

    /// `SecItemCopyMatching` for the item's data, with `context` when given.
    private static func read(with context: LAContext?) -> (OSStatus, Data?) {
        var query = item([kSecReturnData as String: true])
        if let context { query[kSecUseAuthenticationContext as String] = context }
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result as? Data)
    }

    @Test func anEvaluatedContextReadsTheItemWithoutASecondPrompt() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            let added = await fixture.onThread {
                let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil)
                let add = Self.item([kSecValueData as String: Data("s3cret".utf8), kSecAttrAccessControl as String: access as Any])
                return SecItemAdd(add as CFDictionary, nil)
            }
            #expect(added == errSecSuccess)

            let context = LAContext()
            // The proof outlives the evaluation by at least 10 s; a loaded machine may take longer to reach the
            // read, so the context asks for the longest reuse, which what is tested here does not depend on.
            context.touchIDAuthenticationAllowableReuseDuration = LATouchIDAuthenticationMaximumAllowableReuseDuration
            async let outcome = evaluateOnceTheAgentListens(context, .deviceOwnerAuthentication, reason: "read the token")
            _ = await fixture.answer(try await fixture.nextPrompt(), with: DaemonFixture.passcode)
            #expect(await outcome.success)

            let prompts = fixture.cancelEveryPrompt()
            let (status, data) = await fixture.onThread { Self.read(with: context) }
            #expect(status == errSecSuccess)
            #expect(data == Data("s3cret".utf8))
            #expect(prompts.value == 0)

            // A fresh context that may not prompt has no proof: -25308, and nobody is asked.
            let fresh = LAContext()
            fresh.interactionNotAllowed = true
            let (refused, nothing) = await fixture.onThread { Self.read(with: fresh) }
            #expect(refused == errSecInteractionNotAllowed)
            #expect(refused == -25308)
            #expect(nothing == nil)
            #expect(prompts.value == 0)

            // Without a context the call asks the person itself (who cancels here): the item is really guarded.
            let (cancelled, _) = await fixture.onThread { Self.read(with: nil) }
            #expect(cancelled == errSecUserCanceled)
            #expect(prompts.value == 1)
        }
    }

    @Test func anEvaluatedAccessControlServesTheItemCall() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            let access = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil))
            let added = await fixture.onThread {
                SecItemAdd(Self.item([kSecValueData as String: Data("s3cret".utf8), kSecAttrAccessControl as String: access]) as CFDictionary, nil)
            }
            #expect(added == errSecSuccess)
            let context = LAContext()
            // Registers the agent first: a prompt it cancels.
            async let first = evaluateOnceTheAgentListens(context, .deviceOwnerAuthentication, reason: "first")
            _ = await fixture.answer(try await fixture.nextPrompt(), with: nil)
            _ = await first
            async let evaluated = context.evaluateAccessControl(access, operation: .useItem, localizedReason: "read the token")
            let prompt = try await fixture.nextPrompt()
            #expect(prompt.reason == "read the token")
            _ = await fixture.answer(prompt, with: DaemonFixture.passcode)
            #expect(try await evaluated)
            let prompts = fixture.cancelEveryPrompt()
            let (status, data) = await fixture.onThread { Self.read(with: context) }
            #expect(status == errSecSuccess)
            #expect(data == Data("s3cret".utf8))
            #expect(prompts.value == 0)
        }
    }
}
