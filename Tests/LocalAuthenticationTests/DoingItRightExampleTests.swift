import Foundation
import LocalAuthentication
import Security
import Testing

// coffer-lint:disable-file delete-then-add, status-ignored: the example replaces its item as the article it follows does.

/// The code of the DocC article "Protecting a secret with presence, not with a Bool", run through the daemon.
private enum TokenStore {
    static let service = "com.example.notes"
    static let account = "sync-token"

    static func save(_ token: Data) throws {
        var error: Unmanaged<CFError>?
        guard
            let access = SecAccessControlCreateWithFlags(
                nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .userPresence, &error)
        else { throw error!.takeRetainedValue() as Error }

        let item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecAttrAccessControl as String: access,
            kSecValueData as String: token,
        ]
        SecItemDelete(item as CFDictionary)  // replace an older token, if any
        let status = SecItemAdd(item as CFDictionary, nil)
        guard status == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
    }

    static func load() async throws -> Data {
        let context = LAContext()
        _ = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "sync your notes")

        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecReturnData as String: true,
            kSecUseAuthenticationContext as String: context,
        ]
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess:
            return result as! Data
        case errSecUserCanceled:
            throw CancellationError()
        default:
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(status))
        }
    }

    static var exists: Bool {
        let quiet = LAContext()
        quiet.interactionNotAllowed = true
        let probe: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: TokenStore.service,
            kSecAttrAccount as String: TokenStore.account,
            kSecUseAuthenticationContext as String: quiet,
        ]
        return [errSecSuccess, errSecInteractionNotAllowed].contains(SecItemCopyMatching(probe as CFDictionary, nil))
    }
}

@Suite("The DoingItRight article's example", .serialized, .timeLimit(.minutes(10)))
struct DoingItRightExampleTests {
    @Test func theTokenIsStoredProbedAndReadAfterOnePrompt() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            #expect(await fixture.onThread { TokenStore.exists } == false)
            try await fixture.onThread { Result { try TokenStore.save(Data("t0ken".utf8)) } }.get()
            #expect(await fixture.onThread { TokenStore.exists })
            // Registers the agent first: a prompt it cancels.
            async let registered = evaluateOnceTheAgentListens(LAContext(), .deviceOwnerAuthentication, reason: "first")
            _ = await fixture.answer(try await fixture.nextPrompt(), with: nil)
            #expect(await registered.laError?.code == .userCancel)
            async let loaded = TokenStore.load()
            let prompt = try await fixture.nextPrompt()
            #expect(prompt.reason == "sync your notes")
            _ = await fixture.answer(prompt, with: DaemonFixture.passcode)
            let prompts = fixture.cancelEveryPrompt()
            #expect(try await loaded == Data("t0ken".utf8))
            #expect(prompts.value == 0)
        }
    }
}
