import Crypto
import Foundation
import KeyCrypto
import Testing

/// Every algorithm of SecKey.h against EC P-256 and RSA-2048 keys: what a key supports works both ways and
/// detects tampering; what it does not support answers false and fails with `errSecParam`, as Apple's does.
@Suite(.timeLimit(.minutes(10))) struct AlgorithmTests {
    static let ellipticCurve = try! AsymmetricKey.generate(type: .ellipticCurve, sizeInBits: 256)
    static let rsa = try! AsymmetricKey.generate(type: .rsa, sizeInBits: 2048)
    static let message = Data("The quick brown fox".utf8)

    /// The input an algorithm signs: the message, or a digest of the length its name says.
    static func input(for algorithm: KeyAlgorithm) -> Data {
        let name = algorithm.rawValue
        guard name.contains(":digest-") else { return message }
        if name.hasSuffix("SHA1") || name.contains(":SHA1:") { return Data(Insecure.SHA1.hash(data: message)) }
        if name.hasSuffix("SHA224") || name.contains(":SHA224:") { return Data(repeating: 0x22, count: 28) }
        if name.hasSuffix("SHA384") || name.contains(":SHA384:") { return Data(SHA384.hash(data: message)) }
        if name.hasSuffix("SHA512") || name.contains(":SHA512:") { return Data(SHA512.hash(data: message)) }
        return Data(SHA256.hash(data: message))
    }

    @Test func everySupportedSignatureVerifiesAndTamperingFails() throws {
        var covered = 0
        for key in [Self.ellipticCurve, Self.rsa] {
            for algorithm in KeyAlgorithm.all where key.isSupported(algorithm, for: .sign) {
                #expect(key.publicKey.isSupported(algorithm, for: .verify), "\(algorithm.rawValue)")
                let input = Self.input(for: algorithm)
                let signature = try key.signature(for: input, algorithm: algorithm)
                try key.publicKey.verifySignature(signature, for: input, algorithm: algorithm)
                var tampered = signature
                tampered[tampered.count / 2] ^= 0x40
                do {
                    try key.publicKey.verifySignature(tampered, for: input, algorithm: algorithm)
                    Issue.record("a tampered \(algorithm.rawValue) signature verified")
                } catch {
                    #expect(error.status == -67808 || error.status == -50, "\(algorithm.rawValue): \(error)")
                }
                covered += 1
            }
        }
        #expect(covered >= 45)
    }

    @Test func everySupportedEncryptionDecrypts() throws {
        var covered = 0
        for key in [Self.ellipticCurve, Self.rsa] {
            for algorithm in KeyAlgorithm.all where key.publicKey.isSupported(algorithm, for: .encrypt) {
                let ciphertext = try key.publicKey.encrypt(Self.message, algorithm: algorithm)
                var tampered = ciphertext
                tampered[tampered.count - 1] ^= 1
                if algorithm == .rsaEncryptionRaw {
                    // Raw RSA gives back the whole block, the message with leading zeros, and has no integrity.
                    let block = Data(count: key.blockSize - Self.message.count) + Self.message
                    #expect(try key.decrypt(ciphertext, algorithm: algorithm) == block)
                    #expect(try key.decrypt(tampered, algorithm: algorithm) != block)
                } else {
                    #expect(try key.decrypt(ciphertext, algorithm: algorithm) == Self.message, "\(algorithm.rawValue)")
                    #expect(throws: KeyCryptoError.self, "\(algorithm.rawValue)") { try key.decrypt(tampered, algorithm: algorithm) }
                }
                covered += 1
            }
        }
        #expect(covered >= 26)
    }

    @Test func everyKeyExchangeAgrees() throws {
        let other = try AsymmetricKey.generate(type: .ellipticCurve, sizeInBits: 256)
        var covered = 0
        for algorithm in KeyAlgorithm.all where Self.ellipticCurve.isSupported(algorithm, for: .keyExchange) {
            let kdf = algorithm.rawValue.contains("KDFX963")
            let size = kdf ? 48 : nil
            let info = kdf ? Data("info".utf8) : nil
            let mine = try Self.ellipticCurve.sharedSecret(with: other.publicKey, algorithm: algorithm, requestedSize: size, sharedInfo: info)
            let theirs = try other.sharedSecret(with: Self.ellipticCurve.publicKey, algorithm: algorithm, requestedSize: size, sharedInfo: info)
            #expect(mine == theirs, "\(algorithm.rawValue)")
            #expect(mine.count == (kdf ? 48 : 32), "\(algorithm.rawValue)")
            covered += 1
        }
        #expect(covered >= 10)
    }

    @Test func unsupportedAlgorithmsAnswerFalseAndFailWithParam() throws {
        #expect(!Self.rsa.publicKey.isSupported(.rsaSignatureRaw, for: .sign))
        #expect(!Self.rsa.isSupported(.rsaEncryptionRaw, for: .encrypt))
        #expect(!Self.rsa.isSupported(.ecdsaSignatureMessageX962SHA256, for: .sign))
        #expect(!Self.ellipticCurve.isSupported(.rsaSignatureMessagePKCS1v15SHA256, for: .sign))
        #expect(!Self.ellipticCurve.publicKey.isSupported(.ecdsaSignatureMessageX962SHA256, for: .sign))
        #expect(!Self.ellipticCurve.isSupported(KeyAlgorithm(rawValue: "algid:sign:nonsense"), for: .sign))
        do {
            _ = try Self.ellipticCurve.publicKey.signature(for: Self.message, algorithm: .ecdsaSignatureMessageX962SHA256)
            Issue.record("a public key signed")
        } catch {
            #expect(error.status == -50)
        }
        do {
            _ = try Self.ellipticCurve.signature(for: Data(count: 5), algorithm: .ecdsaSignatureDigestX962SHA256)
            Issue.record("a 5-byte SHA-256 digest was signed")
        } catch {
            #expect(error.status == -50)
        }
    }

    @Test func rfc4754SignaturesAreRawCoordinates() throws {
        let signature = try Self.ellipticCurve.signature(for: Self.message, algorithm: .ecdsaSignatureMessageRFC4754SHA256)
        #expect(signature.count == 64)
        let swiftCrypto = try P256.Signing.PublicKey(x963Representation: Self.ellipticCurve.publicKeyBytes)
        #expect(swiftCrypto.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: Self.message))
    }
}

@Test func everyAlgorithmHasItsSwiftName() {
    #expect(KeyAlgorithm.bySwiftName.count == KeyAlgorithm.all.count)
    #expect(Set(KeyAlgorithm.bySwiftName.values.map(\.rawValue)) == Set(KeyAlgorithm.all.map(\.rawValue)))
    #expect(KeyAlgorithm.bySwiftName["ecdsaSignatureMessageX962SHA256"]?.rawValue == "algid:sign:ECDSA:message-X962:SHA256")
}
