import Foundation
import KeyCrypto
import Testing

/// Ed25519 keys (`kSecAttrKeyTypeEd25519`, 105): the 32-byte external representations, RFC 8032's first test vector,
/// the public key formats, and PKCS#8 as OpenSSL reads and writes it.
@Suite(.timeLimit(.minutes(10))) struct Ed25519Tests {
    /// RFC 8032 §7.1, TEST 1: the secret key, its public key, and the signature of the empty message.
    static let seed = Data(hexString: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
    static let point = Data(hexString: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
    static let signature = Data(
        hexString:
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")

    @Test func rfc8032sFirstVectorSignsAndVerifies() throws {
        let key = try AsymmetricKey(externalRepresentation: Self.seed, type: .ed25519, keyClass: .privateKey)
        #expect(key.type == .ed25519 && key.keyClass == .privateKey && key.sizeInBits == 256 && key.blockSize == 32)
        #expect(key.externalRepresentation() == Self.seed)
        #expect(key.publicKeyBytes == Self.point && key.publicKey.externalRepresentation() == Self.point)
        let algorithm = KeyAlgorithm.edDSASignatureMessageCurve25519SHA512
        #expect(algorithm.rawValue == "algid:sign:EdDSA:message-Curve25519:SHA512")
        #expect(try key.signature(for: Data(), algorithm: algorithm) == Self.signature)
        let publicKey = try AsymmetricKey(externalRepresentation: Self.point, type: .ed25519, keyClass: .publicKey)
        try publicKey.verifySignature(Self.signature, for: Data(), algorithm: algorithm)
        #expect(throws: KeyCryptoError(status: KeyCryptoError.Status.verifyFailed, message: "Ed25519 signature verification failed, no match")) {
            try publicKey.verifySignature(Self.signature, for: Data([0]), algorithm: algorithm)
        }
        #expect(key.isSupported(algorithm, for: .sign) && publicKey.isSupported(algorithm, for: .verify))
        #expect(!key.isSupported(.ecdsaSignatureMessageX962SHA256, for: .sign) && !publicKey.isSupported(algorithm, for: .sign))
        #expect(!key.isSupported(.eciesEncryptionStandardX963SHA256AESGCM, for: .decrypt))
        #expect(AsymmetricKey.isSupported(algorithm, for: .sign, byPrivateKeyOf: .ed25519, sizeInBits: 256))
        #expect(!AsymmetricKey.isSupported(.ecdsaSignatureMessageX962SHA256, for: .sign, byPrivateKeyOf: .ed25519, sizeInBits: 256))
        #expect("\(key)" == "Ed25519 private key")
    }

    @Test func aGeneratedKeysSignatureVerifies() throws {
        let key = try AsymmetricKey.generate(type: .ed25519, sizeInBits: 256)
        let message = Data("signed by a generated Ed25519 key".utf8)
        let signature = try key.signature(for: message, algorithm: .edDSASignatureMessageCurve25519SHA512)
        let publicKey = try AsymmetricKey(externalRepresentation: key.publicKeyBytes, type: .ed25519, keyClass: .publicKey)
        try publicKey.verifySignature(signature, for: message, algorithm: .edDSASignatureMessageCurve25519SHA512)
        try key.publicKey.verifySignature(signature, for: message, algorithm: .edDSASignatureMessageCurve25519SHA512)
        // Comparing keys clears the external representations it makes; the key itself must be left whole.
        #expect(key == (try AsymmetricKey(externalRepresentation: key.externalRepresentation(), type: .ed25519, keyClass: .privateKey)))
        #expect(try key.signature(for: message, algorithm: .edDSASignatureMessageCurve25519SHA512) == signature)
    }

    @Test func wrongLengthsAreErrSecParam() {
        for count in [0, 31, 33, 64] {
            #expect(throws: KeyCryptoError.self) { try AsymmetricKey(externalRepresentation: Data(count: count), type: .ed25519, keyClass: .privateKey) }
            #expect(throws: KeyCryptoError.self) { try AsymmetricKey(externalRepresentation: Data(count: count), type: .ed25519, keyClass: .publicKey) }
        }
        #expect(throws: KeyCryptoError.self) { try AsymmetricKey.generate(type: .ed25519, sizeInBits: 384) }
    }

    @Test func theDerivedAttributesAreTheECKeysFlagsWithType105() throws {
        let key = try AsymmetricKey.generate(type: .ed25519, sizeInBits: 256)
        let attributes = key.derivedAttributes
        #expect(attributes.keyType.rawValue == 105 && attributes.sizeInBits == 256 && attributes.applicationLabel.count == 20)
        #expect(attributes.canSign && attributes.canDerive && !attributes.canVerify && attributes.isExtractable)
        #expect(key.publicKey.derivedAttributes.canVerify && !key.publicKey.derivedAttributes.canSign)
    }

    @Test func publicFormatsAreOpenSSHsAndRFC8410s() throws {
        let key = try AsymmetricKey(externalRepresentation: Self.seed, type: .ed25519, keyClass: .privateKey)
        #expect(key.openSSHPublicKey(comment: "rfc8032") == "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea rfc8032")
        #expect(key.subjectPublicKeyInfo == Data(hexString: "302a300506032b6570032100") + Self.point)
    }

    @Test func pkcs8RoundTripsAndOpenSSLReadsIt() throws {
        let key = try AsymmetricKey(externalRepresentation: Self.seed, type: .ed25519, keyClass: .privateKey)
        let der = try Self.seed.withUnsafeBytes { seed in
            try PrivateKeyInfo.withDER(externalRepresentation: seed, type: .ed25519) { Data($0) }
        }
        #expect(der == Data(hexString: "302e020100300506032b657004220420") + Self.seed)
        #expect(try AsymmetricKey(pkcs8: der, type: .ed25519) == key)
        let pem = try Self.seed.withUnsafeBytes { seed in
            try PrivateKeyInfo.withPEM(externalRepresentation: seed, type: .ed25519) { Data($0) }
        }
        let read = try InteropPeer.openssl(["pkey", "-in", "@key.pem", "-pubout"], files: ["key.pem": pem])
        #expect(read.status == 0, "\(read.output)")
        #expect(read.output == key.subjectPublicKeyInfoPEM)
    }
}
