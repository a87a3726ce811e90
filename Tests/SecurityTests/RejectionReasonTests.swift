import CofferTestSupport
import Foundation
import KeychainModel
import Testing

@testable import Security

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
}
