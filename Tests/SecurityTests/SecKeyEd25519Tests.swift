import Foundation
import Security
import Testing

/// `SecKey` with Ed25519 software keys (`kSecAttrKeyTypeEd25519`, Apple's SPI since macOS 14 and iOS 17): generation,
/// the 32-byte external representations, attributes, and `kSecKeyAlgorithmEdDSASignatureMessageCurve25519SHA512`.
@Suite(.timeLimit(.minutes(10))) struct SecKeyEd25519Tests {
    @Test func generatedKeysImportSignAndVerify() throws {
        var error: Unmanaged<CFError>?
        let key = try #require(SecKeyCreateRandomKey([kSecAttrKeyType as String: kSecAttrKeyTypeEd25519] as CFDictionary, &error))
        let publicKey = try #require(SecKeyCopyPublicKey(key))
        let privateBytes = try #require(SecKeyCopyExternalRepresentation(key, nil) as Data?)
        let publicBytes = try #require(SecKeyCopyExternalRepresentation(publicKey, nil) as Data?)
        #expect(privateBytes.count == 32 && publicBytes.count == 32)
        #expect(SecKeyGetBlockSize(key) == 32)
        #expect(key.description == "<SecKeyRef algorithm id: 4, key type: Ed25519PrivateKey, block size: 256 bits>")

        let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
        #expect(attributes[kSecAttrKeyType as String] as? String == "105")
        #expect(attributes[kSecAttrKeyClass as String] as? String == "1")
        #expect(attributes[kSecAttrKeySizeInBits as String] as? Int == 256)
        #expect(attributes[kSecAttrCanSign as String] as? Bool == true)

        let imported = try #require(
            SecKeyCreateWithData(
                privateBytes as CFData,
                [
                    kSecAttrKeyType as String: kSecAttrKeyTypeEd25519, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
                ] as CFDictionary, nil))
        #expect(imported == key)
        let algorithm = SecKeyAlgorithm.edDSASignatureMessageCurve25519SHA512
        #expect(SecKeyIsAlgorithmSupported(key, .sign, algorithm) && SecKeyIsAlgorithmSupported(publicKey, .verify, algorithm))
        #expect(!SecKeyIsAlgorithmSupported(key, .sign, .ecdsaSignatureMessageX962SHA256))
        let message = Data("signed by an Ed25519 SecKey".utf8)
        let signature = try #require(SecKeyCreateSignature(imported, algorithm, message as CFData, nil) as Data?)
        #expect(signature.count == 64)
        #expect(SecKeyVerifySignature(publicKey, algorithm, message as CFData, signature as CFData, nil))
        // Ed25519 is deterministic: the key compared above (`==`) still signs as it did.
        #expect(SecKeyCreateSignature(key, algorithm, message as CFData, nil) as Data? == signature)
        #expect(!SecKeyVerifySignature(publicKey, algorithm, Data("another".utf8) as CFData, signature as CFData, nil))
    }

    @Test func bytesThatAreNoEd25519KeyAreErrSecParam() {
        var error: Unmanaged<CFError>?
        let key = SecKeyCreateWithData(
            Data(count: 31) as CFData,
            [
                kSecAttrKeyType as String: kSecAttrKeyTypeEd25519, kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
            ] as CFDictionary, &error)
        #expect(key == nil)
        #expect(error.map { CFErrorGetCode($0.takeRetainedValue()) } == -50)
    }
}
