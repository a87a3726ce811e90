import CofferTestSupport
import Foundation
import Security
import Testing

/// RSA keys of the sizes Apple makes and reads (reference §7.1): 512 to 8192 bits generated, any modulus
/// imported, raw RSA supported, on both transports.
@Suite(.timeLimit(.minutes(10))) struct SecKeyRSASizeTests {
    private func createKey(_ parameters: [String: Any]) -> (SecKey?, Int?) {
        var error: Unmanaged<CFError>?
        let key = SecKeyCreateRandomKey(parameters as CFDictionary, &error)
        return (key, error.map { CFErrorGetCode($0.takeRetainedValue()) })
    }

    @Test(arguments: Transport.allCases) func weakKeysAreMadeStoredAndUsedAsApplesAre(transport: Transport) throws {
        try withFreshKeychain(transport: transport) {
            for bits in [512, 768, 1024] {
                let tag = Data("com.example.rsa.\(bits)".utf8)
                let (created, status) = createKey([
                    kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: bits,
                    kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: tag],
                ])
                let key = try #require(created, "\(bits) bits: \(String(describing: status))")
                let publicKey = try #require(SecKeyCopyPublicKey(key))
                #expect(SecKeyGetBlockSize(key) == bits / 8)
                var found: CFTypeRef?
                let query: [String: Any] = [
                    kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag, kSecReturnRef as String: true,
                    kSecReturnAttributes as String: true,
                ]
                #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess)
                let stored = try #require(found as? [String: Any])
                #expect(stored[kSecAttrKeySizeInBits as String] as? Int == bits)
                #expect(stored[kSecValueRef as String] as? SecKey == key)

                let message = Data("weak but Apple's".utf8) as CFData
                var error: Unmanaged<CFError>?
                for algorithm in [SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA256, .rsaSignatureMessagePKCS1v15SHA1, .rsaSignatureRaw] {
                    #expect(SecKeyIsAlgorithmSupported(key, .sign, algorithm))
                    let signature = try #require(SecKeyCreateSignature(key, algorithm, message, &error), "\(algorithm.rawValue)")
                    #expect((signature as Data).count == bits / 8)
                    #expect(SecKeyVerifySignature(publicKey, algorithm, message, signature, &error))
                }
                let ciphertext = try #require(SecKeyCreateEncryptedData(publicKey, .rsaEncryptionPKCS1, message, &error))
                #expect(SecKeyCreateDecryptedData(key, .rsaEncryptionPKCS1, ciphertext, &error) as Data? == message as Data)

                let external = try #require(SecKeyCopyExternalRepresentation(key, &error))
                let imported = SecKeyCreateWithData(
                    external, [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate] as CFDictionary,
                    &error)
                #expect(imported == key)
                #expect(SecItemDelete([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag] as CFDictionary) == errSecSuccess)
            }
        }
    }

    @Test func sizesApplesGeneratorRefusesAreErrSecParam() {
        for bits in [256, 511, 8193] {
            let (key, status) = createKey([kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: bits])
            #expect(key == nil && status == Int(errSecParam), "\(bits)")
        }
    }

    @Test func openSSLKeysOf1023And1024BitsImportAndSign() throws {
        let workspace = try OpenSSLWorkspace()
        defer { workspace.remove() }
        for bits in [1023, 1024] {
            try workspace.openssl(["genrsa", "-traditional", "-out", "@key-\(bits).pem", "\(bits)"])
            let der = try workspace.openssl(["rsa", "-in", "@key-\(bits).pem", "-outform", "DER", "-traditional"])
            var error: Unmanaged<CFError>?
            let key = try #require(
                SecKeyCreateWithData(
                    der as CFData,
                    [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate] as CFDictionary, &error),
                "\(bits): \(String(describing: error?.takeRetainedValue()))")
            let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
            #expect(attributes[kSecAttrKeySizeInBits as String] as? Int == bits)
            #expect(SecKeyGetBlockSize(key) == 128)
            let publicDER = try workspace.openssl(["rsa", "-in", "@key-\(bits).pem", "-RSAPublicKey_out", "-outform", "DER"])
            let publicKey = try #require(
                SecKeyCreateWithData(
                    publicDER as CFData,
                    [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPublic] as CFDictionary, &error))
            #expect(SecKeyCopyExternalRepresentation(publicKey, nil) as Data? == publicDER)
            // The raw operations Apple's adaptors provide: a signature's public operation gives the block back.
            let block = Data([0x12, 0x34]) as CFData
            let signature = try #require(SecKeyCreateSignature(key, .rsaSignatureRaw, block, &error))
            #expect(SecKeyVerifySignature(publicKey, .rsaSignatureRaw, block, signature, &error))
            let recovered = try #require(SecKeyCreateEncryptedData(publicKey, .rsaEncryptionRaw, signature, &error) as Data?)
            #expect(recovered == Data(count: 126) + Data([0x12, 0x34]))
        }
    }
}
