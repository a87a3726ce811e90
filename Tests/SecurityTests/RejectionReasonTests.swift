import CofferTestSupport
import Foundation
import KeychainModel
import Testing

// coffer-lint:disable-file attribute-not-in-class: these tests send Apple's keychain bad dictionaries on purpose.

@_spi(Testing) @testable import Security

/// `COFFER_LOG=debug` shows why a call was refused: the rule, the key and the reason, from either
/// transport, while the function returns Apple's status.
@Suite("Security diagnostics say why", .timeLimit(.minutes(10)))
struct SecurityRejectionReasonTests {
    @Test(arguments: Transport.allCases)
    func aForeignAttributeIsNamedWithItsRule(transport: Transport) throws {
        try withFreshKeychain(transport: transport) {
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrServer as String: "example.com",
                kSecValueData as String: Data("hunter2".utf8),
            ]
            #expect(SecItemAdd(query as CFDictionary, nil) == errSecNoSuchAttr)
            let failure = try #require(throws: KeychainFailure.self) {
                _ = try SharedKeychain.client.blocking.add(ValueBridge.query(query as CFDictionary))
            }
            #expect(failure.status.code == errSecNoSuchAttr)
            #expect(failure.reason == "G4: kSecAttrServer is not an attribute of kSecClassGenericPassword")
            let line = Diagnostics.line("SecItemAdd(…)", status: failure.status, reason: failure.reason, result: nil)
            #expect(line.contains("errSecNoSuchAttr (-25303)"))
            #expect(line.contains("Reason: G4: kSecAttrServer is not an attribute of kSecClassGenericPassword"))
            #expect(!line.contains("hunter2"))
        }
    }

    /// The engine's refusals name their rule and say why, as the parser's do: an explicit group outside the caller's
    /// list (G13), and a search that matches nothing among the caller's groups (C1).
    @Test(arguments: Transport.allCases)
    func theEnginesRefusalsNameTheirRule(transport: Transport) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-rules-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = { () throws in
            let foreign: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc", kSecAttrAccount as String: "a",
                kSecAttrAccessGroup as String: "com.example.other", kSecValueData as String: Data("hunter2".utf8),
            ]
            #expect(SecItemAdd(foreign as CFDictionary, nil) == errSecMissingEntitlement)
            let refused = try #require(throws: KeychainFailure.self) {
                _ = try SharedKeychain.client.blocking.add(ValueBridge.query(foreign as CFDictionary))
            }
            #expect(refused.status.code == errSecMissingEntitlement)
            #expect(refused.reason == "G13: kSecAttrAccessGroup \"com.example.other\" is not one of the calling program's access groups")
            #expect(refused.reason?.contains("hunter2") == false)

            let missing: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "nobody"]
            let notFound = try #require(throws: KeychainFailure.self) {
                _ = try SharedKeychain.client.blocking.copyMatching(ValueBridge.query(missing as CFDictionary))
            }
            #expect(notFound.status.code == errSecItemNotFound)
            #expect(notFound.reason == "C1: no item matches the query among the calling program's access groups")
            let line = Diagnostics.line("SecItemAdd(…)", status: refused.status, reason: refused.reason, result: nil)
            #expect(line.contains("Reason: G13: kSecAttrAccessGroup"))
        }
        switch transport {
        case .embedded:
            try SecurityTesting.withKeychain(at: folder, accessGroups: "com.example.app", body)
        case .daemon:
            let daemon = try InProcessDaemon(folder: KeychainFolder(url: folder), groups: ["com.example.app"])
            try withExtendedLifetime(daemon) { try SecurityTesting.withKeychain(socket: daemon.socketPath, body) }
        }
    }
}
