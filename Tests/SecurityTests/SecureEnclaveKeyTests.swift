import CofferTestSupport
import Foundation
import Security
import Testing

/// Keys that never leave the keychain (`kSecAttrTokenIDSecureEnclave`, reference §7.5), on both transports:
/// made and used by the keychain, exported never, stored as token key items, and useless to another keychain.
@Suite(.timeLimit(.minutes(10))) struct SecureEnclaveKeyTests {
    private func parameters(tag: Data, permanent: Bool = true, extra: [String: Any] = [:]) -> [String: Any] {
        var privateAttributes: [String: Any] = [kSecAttrIsPermanent as String: permanent, kSecAttrApplicationTag as String: tag]
        privateAttributes.merge(extra) { $1 }
        return [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave, kSecPrivateKeyAttrs as String: privateAttributes,
        ]
    }

    private func status(of error: Unmanaged<CFError>?) -> Int? { error.map { CFErrorGetCode($0.takeRetainedValue()) } }

    @Test(arguments: Transport.allCases) func aKeyIsMadeUsedAndFoundButNeverExported(transport: Transport) throws {
        try withFreshKeychain(transport: transport) {
            let tag = Data("enclave.sign".utf8)
            var error: Unmanaged<CFError>?
            let key = try #require(SecKeyCreateRandomKey(parameters(tag: tag) as CFDictionary, &error), "\(String(describing: error))")
            let publicKey = try #require(SecKeyCopyPublicKey(key))
            #expect(SecKeyGetBlockSize(key) == 32)
            #expect(SecKeyCopyExternalRepresentation(key, &error) == nil)
            #expect(status(of: error) == Int(errSecUnimplemented))
            let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
            #expect(attributes[kSecAttrTokenID as String] as? String == "com.apple.setoken")
            #expect(attributes[kSecAttrIsExtractable as String] as? Bool == false)

            let message = Data("challenge".utf8) as CFData
            let algorithm = SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256
            #expect(SecKeyIsAlgorithmSupported(key, .sign, algorithm))
            #expect(!SecKeyIsAlgorithmSupported(key, .verify, algorithm))
            let signature = try #require(SecKeyCreateSignature(key, algorithm, message, &error) as Data?, "\(String(describing: error))")
            #expect(SecKeyVerifySignature(publicKey, algorithm, message, signature as CFData, nil))

            // Found again by its tag, it signs as well.
            var found: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag, kSecReturnRef as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess)
            let stored = try #require(found as? SecKey)
            #expect(stored == key)
            let again = try #require(SecKeyCreateSignature(stored, algorithm, message, nil) as Data?)
            #expect(SecKeyVerifySignature(publicKey, algorithm, message, again as CFData, nil))

            // ECIES to the public key decrypts with the private one, inside the keychain.
            let ecies = SecKeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM
            let ciphertext = try #require(SecKeyCreateEncryptedData(publicKey, ecies, Data("secret".utf8) as CFData, nil))
            #expect(SecKeyCreateDecryptedData(stored, ecies, ciphertext, nil) as Data? == Data("secret".utf8))
        }
    }

    @Test(arguments: Transport.allCases) func otherSizesAndTokensFail(transport: Transport) throws {
        try withFreshKeychain(transport: transport) {
            var error: Unmanaged<CFError>?
            var wrongSize = parameters(tag: Data("x".utf8))
            wrongSize[kSecAttrKeySizeInBits as String] = 384
            #expect(SecKeyCreateRandomKey(wrongSize as CFDictionary, &error) == nil)
            #expect(status(of: error) == Int(errSecParam))
            var wrongToken = parameters(tag: Data("x".utf8))
            wrongToken[kSecAttrTokenID as String] = "com.example.token"
            #expect(SecKeyCreateRandomKey(wrongToken as CFDictionary, &error) == nil)
            #expect(status(of: error) == Int(errSecItemNotFound))
        }
    }

    @Test(arguments: Transport.allCases) func aKeyOfAnotherKeychainIsUseless(transport: Transport) throws {
        let key = try withFreshKeychain(transport: transport) {
            try #require(SecKeyCreateRandomKey(parameters(tag: Data("t".utf8), permanent: false) as CFDictionary, nil))
        }
        try withFreshKeychain(transport: transport) {
            var error: Unmanaged<CFError>?
            #expect(SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, Data("m".utf8) as CFData, &error) == nil)
            #expect(status(of: error) == Int(errSecAuthFailed))
        }
    }

    @Test(arguments: Transport.allCases) func aLockedKeychainRefusesUsesOfWhenUnlockedKeys(transport: Transport) throws {
        try withFreshKeychain(passcode: "1234", transport: transport) {
            #expect(unlock("1234") == errSecSuccess)
            let key = try #require(SecKeyCreateRandomKey(parameters(tag: Data("l".utf8)) as CFDictionary, nil))
            #expect(SecKeychainLock(nil) == errSecSuccess)
            var error: Unmanaged<CFError>?
            #expect(SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, Data("m".utf8) as CFData, &error) == nil)
            #expect(status(of: error) == Int(errSecInteractionNotAllowed))
        }
    }
}
