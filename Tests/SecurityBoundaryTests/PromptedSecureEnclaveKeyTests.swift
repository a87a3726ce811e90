import Foundation
import Security
import Testing

/// Secure Enclave keys whose use needs the person (`privateKeyUsage` with constraints, §6.2, §7.5): the
/// keychain asks before it signs, with a person (a scripted pinentry) at the prompt, on both transports.
@Suite("Secure Enclave keys with a person at the prompt", .serialized, .timeLimit(.minutes(10)))
struct PromptedSecureEnclaveKeyTests {
    private static func makeKey(_ flags: SecAccessControlCreateFlags, tag: String) -> SecKey? {
        let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)!
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Data(tag.utf8), kSecAttrAccessControl as String: access,
            ],
        ]
        var error: Unmanaged<CFError>?
        let key = SecKeyCreateRandomKey(parameters as CFDictionary, &error)
        if let error { Issue.record("\(error.takeRetainedValue())") }
        return key
    }

    private static func sign(_ key: SecKey) -> (Data?, Int?) {
        var error: Unmanaged<CFError>?
        let signature = SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, Data("challenge".utf8) as CFData, &error)
        return (signature as Data?, error.map { CFErrorGetCode($0.takeRetainedValue()) })
    }

    @Test(arguments: BoundaryTransport.allCases) func signingAsksForThePasscodeAndCancellingIsUserCanceled(transport: BoundaryTransport) throws {
        try PromptedKeychain.run(transport) { keychain in
            let key = try #require(Self.makeKey([.privateKeyUsage, .devicePasscode], tag: "prompted"))
            // Making and finding the key asks nothing: only its use is constrained.
            #expect(keychain.descriptions.isEmpty)
            try keychain.willAnswer("1234")
            let (signature, error) = Self.sign(key)
            #expect(error == nil)
            let publicKey = try #require(SecKeyCopyPublicKey(key))
            #expect(
                SecKeyVerifySignature(publicKey, .ecdsaSignatureMessageX962SHA256, Data("challenge".utf8) as CFData, try #require(signature) as CFData, nil))
            #expect(keychain.descriptions.count == 1)

            try keychain.willAnswer("CANCEL")
            #expect(Self.sign(key).1 == Int(errSecUserCanceled))
            try keychain.willAnswer("0000", "1111", "2222")
            #expect(Self.sign(key).1 == Int(errSecAuthFailed))
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func aKeyWithoutConstraintsSignsWithoutAsking(transport: BoundaryTransport) throws {
        try PromptedKeychain.run(transport) { keychain in
            let key = try #require(Self.makeKey(.privateKeyUsage, tag: "free"))
            #expect(Self.sign(key).1 == nil)
            #expect(keychain.descriptions.isEmpty)
        }
    }
}
