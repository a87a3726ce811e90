import CofferTestSupport
import CryptoKit
import Foundation
import Testing

/// Code written the way Apple's documentation for iOS 26 and macOS 26 uses CryptoKit's post-quantum types (written
/// anew here): it compiles against `import CryptoKit` on Linux unchanged and runs, software keys and the keychain's
/// enclave keys alike.
@Suite struct PostQuantumDocumentedUsageTests {
    /// A key agreement any ``KEMPrivateKey`` can do, as generic code over Apple's protocols writes it.
    private static func agree<Key: KEMPrivateKey>(with key: Key) throws -> Bool {
        let result = try key.publicKey.encapsulate()
        return try key.decapsulate(result.encapsulated) == result.sharedSecret
    }

    @Test func mlkemKeysAreStoredWithTheirIntegrityCheckedRepresentation() throws {
        let privateKey = try MLKEM768.PrivateKey()
        let stored = privateKey.integrityCheckedRepresentation
        #expect(stored.count == 96, "the 64-byte seed and SHA3-256 of the public key")
        let restored = try MLKEM768.PrivateKey(integrityCheckedRepresentation: stored)
        #expect(restored.publicKey.rawRepresentation == privateKey.publicKey.rawRepresentation)
        var damaged = stored
        damaged[damaged.count - 1] ^= 1
        #expect(throws: (any Error).self) { try MLKEM768.PrivateKey(integrityCheckedRepresentation: damaged) }

        let large = try MLKEM1024.PrivateKey()
        let again = try MLKEM1024.PrivateKey(seedRepresentation: large.seedRepresentation, publicKey: large.publicKey)
        #expect(again.publicKey.rawRepresentation.count == 1568)
        #expect(throws: (any Error).self) {
            try MLKEM1024.PrivateKey(seedRepresentation: large.seedRepresentation, publicKey: try MLKEM1024.PrivateKey().publicKey)
        }
        let roundTripped = try MLKEM1024.PrivateKey(integrityCheckedRepresentation: large.integrityCheckedRepresentation)
        #expect(try Self.agree(with: roundTripped))
        #expect(try Self.agree(with: MLKEM768.PrivateKey.generate()))
    }

    @Test func mldsaSignaturesCarryTheirContext() throws {
        let signingKey = try MLDSA65.PrivateKey()
        let message = Data("firmware 4.2".utf8)
        let context = Data("com.example.updates".utf8)
        let signature = try signingKey.signature(for: message, context: context)
        let verifier = try MLDSA65.PublicKey(rawRepresentation: signingKey.publicKey.rawRepresentation)
        #expect(verifier.isValidSignature(signature, for: message, context: context))
        #expect(!verifier.isValidSignature(signature, for: message, context: Data("com.example.other".utf8)))
        #expect(!verifier.isValidSignature(signature, for: message))
        let restored = try MLDSA65.PrivateKey(integrityCheckedRepresentation: signingKey.integrityCheckedRepresentation)
        #expect(verifier.isValidSignature(try restored.signature(for: message), for: message))

        let strong = try MLDSA87.PrivateKey()
        let plain = try strong.signature(for: message)
        #expect(plain.count == 4627)
        #expect(strong.publicKey.isValidSignature(plain, for: message))
        let seeded = try MLDSA87.PrivateKey(seedRepresentation: strong.seedRepresentation, publicKey: strong.publicKey)
        #expect(seeded.publicKey.rawRepresentation == strong.publicKey.rawRepresentation)
    }

    @Test func xWingKeysAndHPKE() throws {
        let recipientKey = try XWingMLKEM768X25519.PrivateKey.generate()
        #expect(recipientKey.seedRepresentation.count == 32)
        let reseeded = try XWingMLKEM768X25519.PrivateKey(seedRepresentation: recipientKey.seedRepresentation, publicKey: recipientKey.publicKey)
        #expect(reseeded.publicKey.rawRepresentation == recipientKey.publicKey.rawRepresentation)
        let checked = try XWingMLKEM768X25519.PrivateKey(integrityCheckedRepresentation: recipientKey.integrityCheckedRepresentation)
        #expect(try Self.agree(with: checked))

        // The recipient publishes its key for HPKE; the sender reads it for the X-Wing suite only.
        let published = try recipientKey.publicKey.hpkeRepresentation(kem: .XWingMLKEM768X25519)
        let received = try XWingMLKEM768X25519.PublicKey(published, kem: .XWingMLKEM768X25519)
        #expect(throws: (any Error).self) { try XWingMLKEM768X25519.PublicKey(published, kem: .Curve25519_HKDF_SHA256) }
        let suite = HPKE.Ciphersuite.XWingMLKEM768X25519_SHA256_AES_GCM_256
        let info = Data("example.com backup v1".utf8)
        var sender = try HPKE.Sender(recipientKey: received, ciphersuite: suite, info: info)
        let first = try sender.seal(Data("first".utf8), authenticating: Data("header".utf8))
        let second = try sender.seal(Data("second".utf8))
        var recipient = try HPKE.Recipient(privateKey: recipientKey, ciphersuite: suite, info: info, encapsulatedKey: sender.encapsulatedKey)
        #expect(try recipient.open(first, authenticating: Data("header".utf8)) == Data("first".utf8))
        #expect(try recipient.open(second) == Data("second".utf8))
        #expect(
            try sender.exportSecret(context: Data("export".utf8), outputByteCount: 32)
                == recipient.exportSecret(context: Data("export".utf8), outputByteCount: 32))
    }

    @Test(arguments: Transport.allCases) func enclaveKeysAreKEMPrivateKeysAndSignersToo(transport: Transport) throws {
        try withFreshKeychain(transport: transport) {
            #expect(try Self.agree(with: SecureEnclave.MLKEM768.PrivateKey.generate()))
            #expect(try Self.agree(with: SecureEnclave.MLKEM1024.PrivateKey()))
            let key = try SecureEnclave.MLDSA65.PrivateKey()
            let signature = try key.signature(for: Data("m".utf8), context: Data("ctx".utf8))
            #expect(key.publicKey.isValidSignature(signature, for: Data("m".utf8), context: Data("ctx".utf8)))
        }
    }
}
