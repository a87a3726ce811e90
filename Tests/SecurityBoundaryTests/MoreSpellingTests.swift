import Foundation
import Security
import Testing

/// More spellings seen in real keychain wrappers.
@Suite(.timeLimit(.minutes(10))) struct MoreSpellingTests {
    @Test(arguments: BoundaryTransport.allCases) func keychainWrapperStyleSaveLoadUpdateDelete(transport: BoundaryTransport) throws {
        try withFreshKeychain(transport) {
            let service = "com.example.wrapper"
            func baseQuery(_ key: String) -> [String: Any] {
                [String(kSecClass): kSecClassGenericPassword, String(kSecAttrService): service, String(kSecAttrAccount): key]
            }
            // Save: delete first, ignoring the status, then add (the pattern many wrappers use). Ignoring
            // the status compiles without a warning, as it does for Apple's C functions.
            var query = baseQuery("token")
            SecItemDelete(query as CFDictionary)
            query[kSecValueData as String] = Data("v1".utf8)
            query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
            var status = SecItemAdd(query as CFDictionary, nil)
            guard status == errSecSuccess else { throw KeychainFailure(status: status) }

            // Update through a CFDictionary made from an NSDictionary.
            let changes = NSDictionary(dictionary: [kSecValueData as String: Data("v2".utf8)])
            status = SecItemUpdate(baseQuery("token") as CFDictionary, changes)
            #expect(status == errSecSuccess)

            // Load.
            var load = baseQuery("token")
            load[kSecReturnData as String] = kCFBooleanTrue
            load[kSecMatchLimit as String] = kSecMatchLimitOne
            var dataTypeRef: AnyObject?
            status = SecItemCopyMatching(load as CFDictionary, &dataTypeRef)
            #expect(status == noErr)
            if let data = dataTypeRef as? Data { #expect(String(decoding: data, as: UTF8.self) == "v2") } else { Issue.record("no data") }

            // Delete; deleting again is errSecItemNotFound, which wrappers usually accept.
            #expect(SecItemDelete(baseQuery("token") as CFDictionary) == errSecSuccess)
            status = SecItemDelete(baseQuery("token") as CFDictionary)
            #expect(status == errSecSuccess || status == errSecItemNotFound)
            let message = SecCopyErrorMessageString(status, nil) as String? ?? "unknown"
            #expect(!message.isEmpty)
        }
    }

    @Test func cfErrorThrownAsSwiftError() {
        func makeAccess() throws -> SecAccessControl {
            var error: Unmanaged<CFError>?
            guard let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [.userPresence, .biometryAny], &error) else {
                throw error!.takeRetainedValue() as Error
            }
            return access
        }
        #expect(throws: (any Error).self) { try makeAccess() }
        do { _ = try makeAccess() } catch { #expect((error as NSError).domain == "NSOSStatusErrorDomain") }
    }
}

/// A wrapper's own error for a status.
struct KeychainFailure: Error {
    let status: OSStatus
}
