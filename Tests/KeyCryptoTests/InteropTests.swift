import Crypto
import CryptoExtras
import Foundation
import KeyCrypto
import Testing

/// Signatures, ciphertexts and shared secrets agree with `openssl` and Python's `cryptography`, both ways.
@Suite(.serialized, .timeLimit(.minutes(10))) struct InteropTests {
    static let ellipticCurve = try! AsymmetricKey.generate(type: .ellipticCurve, sizeInBits: 256)
    static let message = Data("interop message".utf8)

    private static var scalar: Data { ellipticCurve.externalRepresentation().suffix(32) }

    @Test func opensslVerifiesOurECDSAAndRSASignatures() throws {
        let ecSignature = try Self.ellipticCurve.signature(for: Self.message, algorithm: .ecdsaSignatureMessageX962SHA256)
        let ecPEM = try P256.Signing.PublicKey(x963Representation: Self.ellipticCurve.publicKeyBytes).pemRepresentation
        let ec = try InteropPeer.openssl(
            ["dgst", "-sha256", "-verify", "@pub.pem", "-signature", "@sig", "@msg"],
            files: ["pub.pem": Data(ecPEM.utf8), "sig": ecSignature, "msg": Self.message])
        #expect(ec.status == 0 && ec.output.contains("Verified OK"), "\(ec.output)")

        let rsa = try AsymmetricKey.generate(type: .rsa, sizeInBits: 2048)
        let rsaPEM = try _RSA.Signing.PublicKey(derRepresentation: rsa.publicKeyBytes).pemRepresentation
        let pss = try rsa.signature(for: Self.message, algorithm: .rsaSignatureMessagePSSSHA256)
        let verifiedPSS = try InteropPeer.openssl(
            [
                "dgst", "-sha256", "-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:32", "-verify", "@pub.pem",
                "-signature", "@sig", "@msg",
            ],
            files: ["pub.pem": Data(rsaPEM.utf8), "sig": pss, "msg": Self.message])
        #expect(verifiedPSS.status == 0, "\(verifiedPSS.output)")
        let pkcs1 = try rsa.signature(for: Self.message, algorithm: .rsaSignatureMessagePKCS1v15SHA256)
        let verifiedPKCS1 = try InteropPeer.openssl(
            ["dgst", "-sha256", "-verify", "@pub.pem", "-signature", "@sig", "@msg"],
            files: ["pub.pem": Data(rsaPEM.utf8), "sig": pkcs1, "msg": Self.message])
        #expect(verifiedPKCS1.status == 0, "\(verifiedPKCS1.output)")

        // A tampered message does not verify there either.
        let tampered = try InteropPeer.openssl(
            ["dgst", "-sha256", "-verify", "@pub.pem", "-signature", "@sig", "@msg"],
            files: ["pub.pem": Data(ecPEM.utf8), "sig": ecSignature, "msg": Self.message + Data([0])])
        #expect(tampered.status != 0)
    }

    @Test func wePythonsSignaturesAndPythonOurs() throws {
        let theirs = try InteropPeer.pythonBytes("ecdsa-sign", Self.scalar, Self.message)
        try Self.ellipticCurve.publicKey.verifySignature(theirs, for: Self.message, algorithm: .ecdsaSignatureMessageX962SHA256)
        let ours = try Self.ellipticCurve.signature(for: Self.message, algorithm: .ecdsaSignatureMessageX962SHA256)
        #expect(try InteropPeer.python("ecdsa-verify", Self.ellipticCurve.publicKeyBytes, Self.message, ours) == "ok")
        var bad = ours
        bad[bad.count - 1] ^= 1
        #expect(try InteropPeer.python("ecdsa-verify", Self.ellipticCurve.publicKeyBytes, Self.message, bad) == "bad")
    }

    @Test func ecdhSecretsAgreeWithPython() throws {
        let peer = try AsymmetricKey.generate(type: .ellipticCurve, sizeInBits: 256)
        let ours = try Self.ellipticCurve.sharedSecret(with: peer.publicKey, algorithm: .ecdhKeyExchangeStandard, requestedSize: nil, sharedInfo: nil)
        let theirs = try InteropPeer.pythonBytes("ecdh", peer.externalRepresentation().suffix(32), Self.ellipticCurve.publicKeyBytes)
        #expect(ours == theirs && ours.count == 32)
    }

    @Test(arguments: [false, true]) func eciesMatchesAnIndependentImplementationOfApplesFormat(variableIV: Bool) throws {
        let algorithm: KeyAlgorithm = variableIV ? .eciesEncryptionStandardVariableIVX963SHA256AESGCM : .eciesEncryptionStandardX963SHA256AESGCM
        let flag = Data([variableIV ? 1 : 0])
        let ours = try Self.ellipticCurve.publicKey.encrypt(Self.message, algorithm: algorithm)
        #expect(ours.count == 65 + Self.message.count + 16)
        #expect(try InteropPeer.pythonBytes("ecies-decrypt", Self.scalar, ours, flag) == Self.message)
        let theirs = try InteropPeer.pythonBytes("ecies-encrypt", Self.ellipticCurve.publicKeyBytes, Self.message, flag)
        #expect(try Self.ellipticCurve.decrypt(theirs, algorithm: algorithm) == Self.message)
    }

    @Test(arguments: [1, 2]) func rsaOAEPCiphertextsDecryptBothWays(shaVersion: UInt8) throws {
        let rsa = try AsymmetricKey.generate(type: .rsa, sizeInBits: 2048)
        let algorithm: KeyAlgorithm = shaVersion == 2 ? .rsaEncryptionOAEPSHA256 : .rsaEncryptionOAEPSHA1
        let spki = try _RSA.Encryption.PublicKey(derRepresentation: rsa.publicKeyBytes).derRepresentation
        let theirs = try InteropPeer.pythonBytes("rsa-oaep-encrypt", spki, Self.message, Data([shaVersion]))
        #expect(try rsa.decrypt(theirs, algorithm: algorithm) == Self.message)
        let ours = try rsa.publicKey.encrypt(Self.message, algorithm: algorithm)
        #expect(try InteropPeer.pythonBytes("rsa-oaep-decrypt", rsa.externalRepresentation(), ours, Data([shaVersion])) == Self.message)
    }
}
