import CofferTestSupport
import Foundation
import Security
import Testing

/// `SecKey` with software keys (reference §7.1, §7.2): generation, external representations, attributes,
/// the operations, and keys stored and found as `kSecClassKey` items, on both transports.
@Suite(.timeLimit(.minutes(10))) struct SecKeyTests {
    private func ecParameters(bits: Int = 256, extra: [String: Any] = [:]) -> [String: Any] {
        [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: bits].merging(extra) { $1 }
    }

    private func createKey(_ parameters: [String: Any]) -> (SecKey?, CFError?) {
        var error: Unmanaged<CFError>?
        let key = SecKeyCreateRandomKey(parameters as CFDictionary, &error)
        return (key, error?.takeRetainedValue())
    }

    @Test func ellipticCurveKeysHaveApplesRepresentationsAndAttributes() throws {
        for (bits, publicLength) in [(256, 65), (384, 97), (521, 133)] {
            let (created, error) = createKey(ecParameters(bits: bits))
            let key = try #require(created, "\(String(describing: error))")
            let publicKey = try #require(SecKeyCopyPublicKey(key))
            var exportError: Unmanaged<CFError>?
            let privateBytes = try #require(SecKeyCopyExternalRepresentation(key, &exportError) as Data?)
            let publicBytes = try #require(SecKeyCopyExternalRepresentation(publicKey, nil) as Data?)
            #expect(publicBytes.count == publicLength && publicBytes.first == 0x04)
            #expect(privateBytes.count == publicLength + (bits + 7) / 8 && privateBytes.prefix(publicLength) == publicBytes)
            let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
            #expect(attributes[kSecAttrKeyClass as String] as? String == "1")
            #expect(attributes[kSecAttrKeyType as String] as? String == "73")
            #expect(attributes[kSecAttrKeySizeInBits as String] as? Int == bits)
            #expect(attributes[kSecAttrCanSign as String] as? Bool == true)
            #expect(attributes[kSecAttrCanVerify as String] as? Bool == false)
            #expect(attributes[kSecValueData as String] as? Data == privateBytes)
            let publicAttributes = try #require(SecKeyCopyAttributes(publicKey) as? [String: Any])
            #expect(publicAttributes[kSecAttrKeyClass as String] as? String == "0")
            #expect(publicAttributes[kSecAttrApplicationLabel as String] as? Data == attributes[kSecAttrApplicationLabel as String] as? Data)
            #expect((attributes[kSecAttrApplicationLabel as String] as? Data)?.count == 20)
            let imported = SecKeyCreateWithData(
                privateBytes as CFData,
                [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate] as CFDictionary, nil)
            #expect(imported == key)
        }
    }

    @Test func signaturesVerifyAndTamperedOnesFailWithVerifyFailed() throws {
        let key = try #require(createKey(ecParameters()).0)
        let publicKey = try #require(SecKeyCopyPublicKey(key))
        let message = Data("challenge".utf8) as CFData
        let algorithm = SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256
        #expect(SecKeyIsAlgorithmSupported(key, .sign, algorithm))
        #expect(!SecKeyIsAlgorithmSupported(publicKey, .sign, algorithm))
        var error: Unmanaged<CFError>?
        let signature = try #require(SecKeyCreateSignature(key, algorithm, message, &error) as Data?)
        #expect(SecKeyVerifySignature(publicKey, algorithm, message, signature as CFData, &error))
        var tampered = signature
        tampered[tampered.count - 1] ^= 1
        #expect(!SecKeyVerifySignature(publicKey, algorithm, message, tampered as CFData, &error))
        #expect(error.map { CFErrorGetCode($0.takeRetainedValue()) } == Int(errSecVerifyFailed))
        error = nil
        #expect(SecKeyCreateSignature(publicKey, algorithm, message, &error) == nil)
        #expect(error.map { CFErrorGetCode($0.takeRetainedValue()) } == Int(errSecParam))
    }

    @Test func missingTypeAndUnsupportedSizeFailAsApplesDo() {
        let (noType, typeError) = createKey([kSecAttrKeySizeInBits as String: 256])
        #expect(noType == nil && typeError.map(CFErrorGetCode) == Int(errSecParam))
        let (badSize, sizeError) = createKey(ecParameters(bits: 200))
        // Apple's EC key init refuses the size with errSecKeySizeNotAllowed; SecECKeyGeneratePair reports errSecParam.
        #expect(badSize == nil && sizeError.map(CFErrorGetCode) == Int(errSecParam))
        var error: Unmanaged<CFError>?
        let garbage = SecKeyCreateWithData(
            Data([1, 2, 3]) as CFData,
            [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass as String: kSecAttrKeyClassPublic] as CFDictionary, &error)
        #expect(garbage == nil && error.map { CFErrorGetCode($0.takeRetainedValue()) } == Int(errSecParam))
    }

    @Test(arguments: Transport.allCases) func permanentKeysAreStoredFoundByTagAndUsable(transport: Transport) throws {
        try withFreshKeychain(transport: transport) {
            let tag = Data("com.example.signing".utf8)
            let parameters = ecParameters(extra: [
                kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: tag]
            ])
            let (created, error) = createKey(parameters)
            let key = try #require(created, "\(String(describing: error))")
            var found: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecReturnRef as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess)
            let stored = try #require(found as? SecKey)
            #expect(stored == key)
            var attributes: CFTypeRef?
            let attributeQuery: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag, kSecReturnAttributes as String: true,
            ]
            #expect(SecItemCopyMatching(attributeQuery as CFDictionary, &attributes) == errSecSuccess)
            let dictionary = try #require(attributes as? [String: Any])
            #expect(dictionary[kSecAttrKeyClass as String] as? Int == 1)
            #expect(dictionary[kSecAttrKeyType as String] as? Int == 73)
            #expect(dictionary[kSecAttrKeySizeInBits as String] as? Int == 256)
            let label = try #require(SecKeyCopyAttributes(key) as? [String: Any])[kSecAttrApplicationLabel as String] as? Data
            #expect(dictionary[kSecAttrApplicationLabel as String] as? Data == label)
            // The same key again is a duplicate (§1.4); a key added by reference is found by reference.
            #expect(SecItemAdd([kSecValueRef as String: key, kSecAttrApplicationTag as String: tag] as CFDictionary, nil) == errSecDuplicateItem)
            #expect(SecItemCopyMatching([kSecValueRef as String: key] as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemDelete([kSecValueRef as String: key] as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching(query as CFDictionary, nil) == errSecItemNotFound)
        }
    }
}
