import CofferTestSupport
import Foundation
import KeychainKeys
import KeychainModel
import KeychainOperations
import KeychainSelection
import Query
@_spi(Testing) import Security
import Testing

/// Post-quantum keys stored as key items (as `coffer create-key -t ml-kem-768` and Coffer's Swift API store them)
/// beside classic keys under the same tag, seen by code written for Apple's Security: `SecKey` has no post-quantum
/// kinds here, so their references are left out of a search's results, as Apple's `SecItemResultProcess` leaves out
/// a result whose reference came back empty; their attributes are there.
@Suite(.timeLimit(.minutes(10))) struct PostQuantumKeyItemTests {
    private let tag = Data("com.example.mixed".utf8)

    private func storeECKey() throws -> SecKey {
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
            kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: tag],
        ]
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateRandomKey(parameters as CFDictionary, &error) else { throw error!.takeRetainedValue() as Error }
        return key
    }

    @Test(arguments: Transport.allCases) func referencesLeaveOutKeysSecKeyDoesNotHave(transport: Transport) throws {
        try withFreshKeychain(transport: transport) {
            try storePostQuantumKeyItem(.mlkem768, tag: tag)
            let ecKey = try storeECKey()
            var result: CFTypeRef?
            let all: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnRef as String: true,
            ]
            #expect(SecItemCopyMatching(all as CFDictionary, &result) == errSecSuccess)
            let keys = try #require(result as? [SecKey], "every element is a SecKey: \(String(describing: result))")
            #expect(keys.count == 1)
            #expect(
                SecKeyCopyExternalRepresentation(try #require(SecKeyCopyPublicKey(keys[0])), nil) as Data?
                    == SecKeyCopyExternalRepresentation(try #require(SecKeyCopyPublicKey(ecKey)), nil) as Data?)

            // With attributes, both items are there; the post-quantum one has no kSecValueRef.
            var withAttributes = all
            withAttributes[kSecReturnAttributes as String] = true
            result = nil
            #expect(SecItemCopyMatching(withAttributes as CFDictionary, &result) == errSecSuccess)
            let items = try #require(result as? [[String: Any]])
            #expect(items.count == 2)
            let postQuantum = try #require(items.first { ($0[kSecAttrKeyType as String] as? Int).map(String.init) == kSecAttrKeyTypeMLKEM as String })
            #expect(postQuantum[kSecValueRef as String] == nil)
            #expect(postQuantum[kSecAttrKeySizeInBits as String] as? Int == 768)
            #expect(items.filter { $0[kSecValueRef as String] is SecKey }.count == 1)

            // Only the post-quantum key asked for, by its type: found, with no reference to hand back.
            var alone = all
            alone[kSecAttrKeyType as String] = kSecAttrKeyTypeMLKEM
            alone[kSecMatchLimit as String] = kSecMatchLimitOne
            result = nil
            #expect(SecItemCopyMatching(alone as CFDictionary, &result) == errSecSuccess)
            #expect(result == nil)
        }
    }
}
