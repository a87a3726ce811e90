import Crypto
import Foundation
import KeyCrypto
import Testing

/// RSA as Apple has it beyond what swift-crypto allows: 512-, 768- and 1024-bit keys (weak, but existing data
/// and tests use them), moduli of any length (1023 bits), raw RSA, SHA-224 and OAEP with every SHA-2.
@Suite(.serialized, .timeLimit(.minutes(10))) struct WeakRSATests {
    static let message = Data("a weak key still signs".utf8)

    @Test(arguments: [512, 768, 1023, 1024]) func weakSizesGenerateRoundTripSignAndEncrypt(bits: Int) throws {
        let key = try AsymmetricKey.generate(type: .rsa, sizeInBits: bits)
        #expect(key.sizeInBits == bits)
        #expect(key.blockSize == (bits + 7) / 8)
        let imported = try AsymmetricKey(externalRepresentation: key.externalRepresentation(), type: .rsa, keyClass: .privateKey)
        #expect(imported == key)
        let publicKey = try AsymmetricKey(externalRepresentation: key.publicKeyBytes, type: .rsa, keyClass: .publicKey)
        #expect(publicKey == key.publicKey)

        for algorithm: KeyAlgorithm in [
            .rsaSignatureMessagePKCS1v15SHA1, .rsaSignatureMessagePKCS1v15SHA224, .rsaSignatureMessagePKCS1v15SHA256,
            .rsaSignatureMessagePSSSHA1, .rsaSignatureRaw, .rsaSignatureDigestPKCS1v15Raw,
        ] {
            let input = algorithm == .rsaSignatureRaw ? Data([1]) + Self.message : Self.message
            let signature = try key.signature(for: input, algorithm: algorithm)
            #expect(signature.count == key.blockSize, "\(algorithm.rawValue)")
            try publicKey.verifySignature(signature, for: input, algorithm: algorithm)
            #expect(throws: KeyCryptoError(status: -67808, message: "RSA signature verification failed, no match")) {
                try publicKey.verifySignature(signature, for: input + Data([0]), algorithm: algorithm)
            }
        }
        for algorithm: KeyAlgorithm in [.rsaEncryptionPKCS1, .rsaEncryptionOAEPSHA1] {
            let ciphertext = try publicKey.encrypt(Self.message, algorithm: algorithm)
            #expect(ciphertext.count == key.blockSize)
            #expect(try key.decrypt(ciphertext, algorithm: algorithm) == Self.message, "\(algorithm.rawValue)")
        }
    }

    @Test func signaturesTheModulusCannotHoldAreErrSecParamAsApplesAre() throws {
        let key = try AsymmetricKey.generate(type: .rsa, sizeInBits: 512)
        // A SHA-512 DigestInfo (83 bytes) and its padding do not fit a 64-byte modulus; SHA-1 and SHA-256 do.
        #expect(key.isSupported(.rsaSignatureMessagePKCS1v15SHA512, for: .sign))
        #expect(throws: KeyCryptoError(status: -50, message: "RSAsign wrong input data length")) {
            try key.signature(for: Self.message, algorithm: .rsaSignatureMessagePKCS1v15SHA512)
        }
        // PSS and OAEP need 2 × the digest's length + 2 bytes: Apple calls them unsupported below that.
        #expect(!key.isSupported(.rsaSignatureMessagePSSSHA256, for: .sign))
        #expect(!key.publicKey.isSupported(.rsaEncryptionOAEPSHA256, for: .encrypt))
        #expect(!key.isSupported(.rsaEncryptionOAEPSHA256, for: .decrypt))
        let big = try AsymmetricKey.generate(type: .rsa, sizeInBits: 1024)
        #expect(big.isSupported(.rsaSignatureMessagePSSSHA384, for: .sign))
        #expect(!big.isSupported(.rsaSignatureMessagePSSSHA512, for: .sign))
        #expect(!big.publicKey.isSupported(.rsaEncryptionOAEPSHA512, for: .encrypt))
        let signature = try big.signature(for: Self.message, algorithm: .rsaSignatureMessagePKCS1v15SHA512)
        try big.publicKey.verifySignature(signature, for: Self.message, algorithm: .rsaSignatureMessagePKCS1v15SHA512)
    }

    @Test func sizesApplesGeneratorRefusesAreErrSecParam() {
        for bits in [0, 256, 511, 8193, 16384] {
            #expect(Self.status { () throws(KeyCryptoError) in _ = try AsymmetricKey.generate(type: .rsa, sizeInBits: bits) } == -50, "\(bits)")
        }
    }

    @Test func rawRSAIsTheBareOperationAsApplesAdaptorsDoIt() throws {
        let key = try AsymmetricKey.generate(type: .rsa, sizeInBits: 1024)
        let publicKey = key.publicKey
        // A short block is a number with leading zeros; signing it and encrypting the signature gives it back.
        let signature = try key.signature(for: Data([0x42, 0x43]), algorithm: .rsaSignatureRaw)
        #expect(try publicKey.encrypt(signature, algorithm: .rsaEncryptionRaw) == Data(count: 126) + Data([0x42, 0x43]))
        try publicKey.verifySignature(signature, for: Data([0x42, 0x43]), algorithm: .rsaSignatureRaw)
        // Apple's raw verification skips the leading zeros of the result, not of the input.
        #expect(throws: KeyCryptoError.self) {
            try publicKey.verifySignature(signature, for: Data([0, 0x42, 0x43]), algorithm: .rsaSignatureRaw)
        }
        // A block longer than the modulus, or not below it, is errSecParam.
        let modulus = key.publicKeyModulus
        for bad in [Data(repeating: 1, count: 129), modulus, Data(repeating: 0xFF, count: 128)] {
            #expect(Self.status { () throws(KeyCryptoError) in _ = try key.signature(for: bad, algorithm: .rsaSignatureRaw) } == -50)
        }
        let ciphertext = try publicKey.encrypt(Data([7]), algorithm: .rsaEncryptionRaw)
        #expect(try key.decrypt(ciphertext, algorithm: .rsaEncryptionRaw) == Data(count: 127) + Data([7]))
    }

    @Test func everySHA2OAEPAndSHA224SignatureAgreesWithOpenSSL() throws {
        let key = try AsymmetricKey.generate(type: .rsa, sizeInBits: 2048)
        let pem = key.publicKey.subjectPublicKeyInfoPEM
        let privatePEM =
            "-----BEGIN RSA PRIVATE KEY-----\n"
            + key.externalRepresentation().base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            + "\n-----END RSA PRIVATE KEY-----\n"
        for (algorithm, name) in [
            (KeyAlgorithm.rsaEncryptionOAEPSHA224, "sha224"), (.rsaEncryptionOAEPSHA384, "sha384"), (.rsaEncryptionOAEPSHA512, "sha512"),
        ] {
            // We encrypt; openssl decrypts with the same key and hashes.
            let ciphertext = try key.publicKey.encrypt(Self.message, algorithm: algorithm)
            let decrypted = try InteropPeer.openssl(
                [
                    "pkeyutl", "-decrypt", "-inkey", "@key.pem", "-in", "@ciphertext", "-pkeyopt", "rsa_padding_mode:oaep",
                    "-pkeyopt", "rsa_oaep_md:\(name)", "-pkeyopt", "rsa_mgf1_md:\(name)",
                ],
                files: ["key.pem": Data(privatePEM.utf8), "ciphertext": ciphertext])
            #expect(decrypted.status == 0 && decrypted.output == String(decoding: Self.message, as: UTF8.self), "\(decrypted.output)")
            #expect(try key.decrypt(ciphertext, algorithm: algorithm) == Self.message)
        }
        let signature = try key.signature(for: Self.message, algorithm: .rsaSignatureMessagePKCS1v15SHA224)
        let verified = try InteropPeer.openssl(
            ["dgst", "-sha224", "-verify", "@pub.pem", "-signature", "@sig", "@msg"],
            files: ["pub.pem": Data(pem.utf8), "sig": signature, "msg": Self.message])
        #expect(verified.status == 0 && verified.output.contains("Verified OK"), "\(verified.output)")
    }

    @Test func aModulusOf1023BitsFromOpenSSLImportsAsApplesDoes() throws {
        let generated = try InteropPeer.openssl(["genrsa", "-traditional", "1023"], files: [:])
        #expect(generated.status == 0)
        let der = try #require(Self.pemBody(generated.output, label: "RSA PRIVATE KEY"))
        let key = try AsymmetricKey(externalRepresentation: der, type: .rsa, keyClass: .privateKey)
        #expect(key.sizeInBits == 1023)
        #expect(key.blockSize == 128)
        #expect(key.externalRepresentation() == der)
        let signature = try key.signature(for: Self.message, algorithm: .rsaSignatureMessagePKCS1v15SHA256)
        let verified = try InteropPeer.openssl(
            ["dgst", "-sha256", "-verify", "@pub.pem", "-signature", "@sig", "@msg"],
            files: ["pub.pem": Data(key.publicKey.subjectPublicKeyInfoPEM.utf8), "sig": signature, "msg": Self.message])
        #expect(verified.status == 0, "\(verified.output)")
        // A key whose numbers do not agree is refused, whatever its size.
        var tampered = der
        tampered[tampered.count / 2] ^= 1
        #expect(throws: KeyCryptoError.self) { try AsymmetricKey(externalRepresentation: tampered, type: .rsa, keyClass: .privateKey) }
    }

    /// The status `body` fails with; nil when it succeeds.
    private static func status(_ body: () throws(KeyCryptoError) -> Void) -> Int32? {
        do {
            try body()
            return nil
        } catch {
            return error.status
        }
    }

    /// The DER inside the PEM block labelled `label`.
    private static func pemBody(_ text: String, label: String) -> Data? {
        guard let start = text.range(of: "-----BEGIN \(label)-----"), let end = text.range(of: "-----END \(label)-----") else { return nil }
        let body = text[start.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
        return Data(base64Encoded: String(body))
    }
}

extension AsymmetricKey {
    /// The modulus of an RSA key, from its PKCS#1 `RSAPublicKey` (`SEQUENCE { n INTEGER, e INTEGER }`).
    fileprivate var publicKeyModulus: Data {
        let der = [UInt8](publicKeyBytes)
        var index = 1
        index += der[index] & 0x80 != 0 ? Int(der[index] & 0x7F) + 1 : 1  // the SEQUENCE's length
        index += 1  // INTEGER tag
        let lengthBytes = der[index] & 0x80 != 0 ? Int(der[index] & 0x7F) : 0
        let length = lengthBytes == 0 ? Int(der[index]) : der[(index + 1)...(index + lengthBytes)].reduce(0) { $0 << 8 | Int($1) }
        index += lengthBytes + 1
        return Data(der[index..<(index + length)]).drop(while: { $0 == 0 })
    }
}
