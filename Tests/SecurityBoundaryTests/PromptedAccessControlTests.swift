import Foundation
import Security
import Testing

/// Access-controlled items read through Apple's calls, with a person (a scripted pinentry) at the prompt:
/// the process's own in embedded mode, the prompt agent's in daemon mode (§6.3, §6.4).
@Suite("Access control with a person at the prompt", .serialized, .timeLimit(.minutes(10)))
struct PromptedAccessControlTests {
    private static func protectedItem(_ account: String, flags: SecAccessControlCreateFlags = .userPresence) -> [String: Any] {
        let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, flags, nil)!
        return genericPassword(service: "prompted", account: account, data: Data("s3cret".utf8), [kSecAttrAccessControl as String: access])
    }

    private static func read(_ account: String, _ extra: [String: Any] = [:]) -> (OSStatus, CFTypeRef?) {
        var found: CFTypeRef?
        let query = genericPasswordSearch(service: "prompted", account: account, [kSecReturnData as String: true].merging(extra) { _, new in new })
        let status = SecItemCopyMatching(query as CFDictionary, &found)
        return (status, found)
    }

    @Test(arguments: BoundaryTransport.allCases) func theRightPasscodeOpensTheItemAndThePromptSaysWhy(transport: BoundaryTransport) throws {
        try PromptedKeychain.run(transport) { keychain in
            #expect(SecItemAdd(Self.protectedItem("a") as CFDictionary, nil) == errSecSuccess)
            try keychain.willAnswer("1234")
            let (status, found) = Self.read("a", [kSecUseOperationPrompt as String: "Read the deploy token"])
            #expect(status == errSecSuccess)
            #expect((found as? Data).map { String(decoding: $0, as: UTF8.self) } == "s3cret")
            let shown = keychain.descriptions.joined(separator: " ")
            #expect(shown.contains("Read the deploy token"))
            #expect(shown.contains("asks you to confirm it is you"))
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func cancellingIsUserCanceledAndWrongPasscodesAreAuthFailed(transport: BoundaryTransport) throws {
        try PromptedKeychain.run(transport) { keychain in
            #expect(SecItemAdd(Self.protectedItem("a") as CFDictionary, nil) == errSecSuccess)
            try keychain.willAnswer("CANCEL")
            #expect(Self.read("a").0 == errSecUserCanceled)
            try keychain.willAnswer("0000", "1111", "2222")
            #expect(Self.read("a").0 == errSecAuthFailed)
            // The prompt asked three times; the right passcode then opens the item.
            #expect(keychain.descriptions.count == 4)
            try keychain.willAnswer("1234")
            #expect(Self.read("a").0 == errSecSuccess)
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func failAndSkipNeverPrompt(transport: BoundaryTransport) throws {
        try PromptedKeychain.run(transport) { keychain in
            #expect(SecItemAdd(Self.protectedItem("a") as CFDictionary, nil) == errSecSuccess)
            try keychain.willAnswer("1234")
            // The existence check of iOS apps: UI Fail answers -25308 for a protected item, -25300 for none.
            let existence: [String: Any] = [kSecReturnData as String: false, kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail]
            #expect(Self.read("a", existence).0 == errSecInteractionNotAllowed)
            #expect(Self.read("missing", existence).0 == errSecItemNotFound)
            #expect(Self.read("a", [kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip]).0 == errSecItemNotFound)
            #expect(keychain.descriptions.isEmpty)
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func theAccessControlComesBackOnceThePersonConfirms(transport: BoundaryTransport) throws {
        try PromptedKeychain.run(transport) { keychain in
            let item = Self.protectedItem("a", flags: .devicePasscode)
            #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess)
            try keychain.willAnswer("1234")
            let (status, found) = Self.read("a", [kSecReturnData as String: false, kSecReturnAttributes as String: true])
            #expect(status == errSecSuccess)
            let attributes = try #require(found as? [String: Any])
            let returned = attributes[kSecAttrAccessControl as String] as AnyObject
            #expect(CFGetTypeID(returned) == SecAccessControlGetTypeID())
            #expect(returned as? SecAccessControl == item[kSecAttrAccessControl as String] as? SecAccessControl)
        }
    }
}
