import Crypto
import Foundation
import KeyCrypto
import Testing

/// External representations (byte for byte Apple's), sizes, labels and derived attributes (§7.1).
@Suite(.timeLimit(.minutes(10))) struct KeyRepresentationTests {
    @Test(arguments: [(256, 65), (384, 97), (521, 133)])
    func ellipticCurveKeysRoundTrip(bits: Int, publicLength: Int) throws {
        let key = try AsymmetricKey.generate(type: .ellipticCurve, sizeInBits: bits)
        let exported = key.externalRepresentation()
        #expect(exported.count == publicLength + (bits + 7) / 8)
        #expect(key.publicKeyBytes.count == publicLength && key.publicKeyBytes.first == 0x04)
        #expect(exported.prefix(publicLength) == key.publicKeyBytes)
        let imported = try AsymmetricKey(externalRepresentation: exported, type: .ellipticCurve, keyClass: .privateKey)
        #expect(imported == key)
        #expect(imported.sizeInBits == bits)
        #expect(key.publicKey.externalRepresentation() == key.publicKeyBytes)
        #expect(key.applicationLabel == Data(Insecure.SHA1.hash(data: key.publicKeyBytes)))
        #expect(key.publicKey.applicationLabel == key.applicationLabel)
    }

    @Test func rsaKeysUsePKCS1() throws {
        let key = try AsymmetricKey.generate(type: .rsa, sizeInBits: 2048)
        #expect(key.sizeInBits == 2048 && key.blockSize == 256)
        let publicBytes = key.publicKeyBytes
        #expect(publicBytes.count == 270 && publicBytes.first == 0x30)  // RSAPublicKey SEQUENCE, as Apple exports it
        let imported = try AsymmetricKey(externalRepresentation: key.externalRepresentation(), type: .rsa, keyClass: .privateKey)
        #expect(imported == key)
        let publicKey = try AsymmetricKey(externalRepresentation: publicBytes, type: .rsa, keyClass: .publicKey)
        #expect(publicKey == key.publicKey)
    }

    @Test func derivedAttributesAreApples() throws {
        let key = try AsymmetricKey.generate(type: .ellipticCurve, sizeInBits: 256)
        let privateAttributes = key.derivedAttributes
        #expect(privateAttributes.keyClass == .privateKey && privateAttributes.keyType == .ellipticCurve)
        #expect(privateAttributes.sizeInBits == 256 && privateAttributes.effectiveKeySize == 256)
        #expect(privateAttributes.canSign && !privateAttributes.canVerify && privateAttributes.canDecrypt && !privateAttributes.canEncrypt)
        #expect(privateAttributes.isExtractable && !privateAttributes.isSensitive && privateAttributes.isPermanent)
        let publicAttributes = key.publicKey.derivedAttributes
        #expect(publicAttributes.keyClass == .publicKey && publicAttributes.canVerify && !publicAttributes.canSign)
        #expect(!publicAttributes.canDerive)  // §7.1: EC public keys do not derive
        #expect(publicAttributes.applicationLabel == privateAttributes.applicationLabel)
        #expect(
            privateAttributes.codes.map(\.code) == [
                "kcls", "type", "bsiz", "esiz", "klbl", "perm", "priv", "modi", "sens", "asen", "extr", "next", "encr", "decr", "drve",
                "sign", "vrfy", "snrc", "vyrc", "wrap", "unwp",
            ])
    }

    @Test func badBytesAndSizesFailWithApplesStatuses() throws {
        #expect(throws: KeyCryptoError.self) { try AsymmetricKey(externalRepresentation: Data([4, 1, 2]), type: .ellipticCurve, keyClass: .publicKey) }
        do {
            _ = try AsymmetricKey(externalRepresentation: Data(repeating: 7, count: 65), type: .ellipticCurve, keyClass: .publicKey)
            Issue.record("a point off the curve was accepted")
        } catch {
            #expect(error.status == -50)
        }
        do {
            _ = try AsymmetricKey.generate(type: .ellipticCurve, sizeInBits: 200)
            Issue.record("a 200-bit EC key was generated")
        } catch {
            #expect(error.status == -50)  // errSecParam, as SecKeyCreateRandomKey reports it
        }
    }
}
