import Coffer
import CofferTestSupport
import Foundation
import Testing
import TestProcesses

/// Keys through the Swift API, on both transports: generated and stored as `SecKeyCreateRandomKey` stores
/// them (reference §7.1, §7.5), found by tag, and used with Apple's algorithms and statuses.
@Suite("Keys through the Swift API", .timeLimit(.minutes(10)))
struct KeyTests {
    init() throws { try DebianPackages.ensureInstalled(["openssl"]) }

    private let message = bytes("challenge")

    @Test(arguments: Transport.allCases) func aSoftwareP256KeyIsStoredFoundSignsAndVerifies(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let tag = bytes("com.example.p256")
        let key = try await temporary.keychain.generateKey(type: .ellipticCurve, sizeInBits: 256, tag: tag, label: "Signing")
        #expect(key.type == .ellipticCurve)
        #expect(key.sizeInBits == 256)
        #expect(!key.neverLeavesKeychain)
        #expect(key.applicationTag == tag)
        #expect(key.label == "Signing")
        #expect(key.accessGroup == temporary.defaultGroup)
        #expect(key.accessibility == .whenUnlocked)  // §1.3.1 default `ak`
        #expect(key.persistentReference?.data.prefix(4) == bytes("keys"))
        #expect(key.publicKey.externalRepresentation.count == 65)  // X9.63 04‖X‖Y
        #expect(key.publicKey.externalRepresentation.first == 0x04)
        #expect(try key.externalRepresentation().count == 97)  // 04‖X‖Y‖K
        #expect(key.applicationLabel == (try sha1(of: key.publicKey.externalRepresentation)))  // klbl (§7.1)

        let found = try #require(try await temporary.keychain.key(tagged: tag))
        #expect(found == key)
        #expect(found.publicKey == key.publicKey)
        #expect(try found.externalRepresentation() == (try key.externalRepresentation()))

        let signature = try await temporary.keychain.sign(message, with: found, algorithm: .ecdsaSignatureMessageX962SHA256)
        #expect(signature.first == 0x30)  // DER SEQUENCE (X9.62)
        #expect(try await temporary.keychain.verify(signature, for: message, with: key.publicKey, algorithm: .ecdsaSignatureMessageX962SHA256))
        let tampered = try await temporary.keychain.verify(
            signature, for: bytes("other"), with: key.publicKey, algorithm: .ecdsaSignatureMessageX962SHA256)
        #expect(tampered == false)
        #expect(try OpenSSL.verifiesECDSA(signature, message: message, publicKey: key.publicKey.externalRepresentation))
        #expect(try OpenSSL.verifiesECDSA(signature, message: bytes("other"), publicKey: key.publicKey.externalRepresentation) == false)
        #expect(key.description == "EC P-256 private key")
    }

    @Test(arguments: Transport.allCases) func aKeyThatNeverLeavesIsStoredFoundSignsButIsNeverExported(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let tag = bytes("com.example.enclave")
        let key = try await temporary.keychain.generateKey(type: .ellipticCurve, sizeInBits: 256, tag: tag, neverLeavesKeychain: true)
        #expect(key.neverLeavesKeychain)
        #expect(key.sizeInBits == 256)
        // Apple's default for a Secure Enclave key, and its row readable always (`dk`, §7.5).
        #expect(key.accessControl == AccessControl(protection: .whenUnlockedThisDeviceOnly, flags: .privateKeyUsage))
        #expect(key.accessibility == .always)
        #expect(key.applicationLabel == (try sha1(of: key.publicKey.externalRepresentation)))
        #expect(key.description == "EC P-256 private key that never leaves the keychain")
        #expect(key.isSupported(.ecdsaSignatureMessageX962SHA256, for: .sign))
        #expect(!key.isSupported(.ecdsaSignatureMessageX962SHA256, for: .verify))

        let exported = #expect(throws: KeychainError.self) { try key.externalRepresentation() }
        #expect(exported?.status == .unimplemented)  // errSecUnimplemented, as SecKeyCopyExternalRepresentation
        #expect(exported?.code == -4)
        #expect(exported?.operation == .exportKey)

        let found = try #require(try await temporary.keychain.key(tagged: tag))
        #expect(found == key)
        #expect(found.neverLeavesKeychain)
        let signature = try await temporary.keychain.sign(message, with: found, algorithm: .ecdsaSignatureMessageX962SHA256)
        #expect(try await temporary.keychain.verify(signature, for: message, with: key.publicKey, algorithm: .ecdsaSignatureMessageX962SHA256))
        #expect(try OpenSSL.verifiesECDSA(signature, message: message, publicKey: key.publicKey.externalRepresentation))

        // ECIES to its public key decrypts inside the keychain.
        let ecies = KeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM
        let ciphertext = try await temporary.keychain.encrypt(bytes("secret"), for: key.publicKey, algorithm: ecies)
        #expect(try await temporary.keychain.decrypt(ciphertext, with: found, algorithm: ecies) == bytes("secret"))
    }

    @Test(arguments: Transport.allCases) func anEd25519KeyThatNeverLeavesSignsAndOnlySigns(transport: Transport) async throws {
        // The keychain's rule keeps Ed25519 keys too, through this API as through SecKeyCreateRandomKey.
        let temporary = TemporaryKeychain(transport: transport)
        let tag = bytes("com.example.ed25519")
        let key = try await temporary.keychain.generateKey(type: .ed25519, sizeInBits: 256, tag: tag, neverLeavesKeychain: true)
        #expect(key.neverLeavesKeychain)
        #expect(key.type == .ed25519)
        #expect(key.publicKey.externalRepresentation.count == 32)
        #expect(key.description == "Ed25519 private key that never leaves the keychain")
        #expect(key.isSupported(.edDSASignatureMessageCurve25519SHA512, for: .sign))
        #expect(!key.isSupported(.eciesEncryptionCofactorVariableIVX963SHA256AESGCM, for: .decrypt))
        #expect(!key.isSupported(.ecdhKeyExchangeStandard, for: .keyExchange))

        let found = try #require(try await temporary.keychain.key(tagged: tag))
        #expect(found == key)
        let signature = try await temporary.keychain.sign(message, with: found, algorithm: .edDSASignatureMessageCurve25519SHA512)
        #expect(signature.count == 64)
        #expect(try await temporary.keychain.verify(signature, for: message, with: key.publicKey, algorithm: .edDSASignatureMessageCurve25519SHA512))
        #expect(
            try await temporary.keychain.verify(signature, for: bytes("other"), with: key.publicKey, algorithm: .edDSASignatureMessageCurve25519SHA512) == false
        )
        // What its kind does not do, the keychain refuses: errSecParam (-50).
        let decrypted = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.decrypt(bytes("x"), with: found, algorithm: .eciesEncryptionCofactorVariableIVX963SHA256AESGCM)
        }
        #expect(decrypted?.status == .param)
        #expect(decrypted?.operation == .decrypt)
        let exported = #expect(throws: KeychainError.self) { try key.externalRepresentation() }
        #expect(exported?.status == .unimplemented)
    }

    @Test(arguments: Transport.allCases) func aKeyNeedingThePersonRefusesUseWithoutInteraction(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let control = AccessControl(protection: .whenUnlockedThisDeviceOnly, flags: [.privateKeyUsage, .userPresence])
        let key = try await temporary.keychain.generateKey(
            type: .ellipticCurve, sizeInBits: 256, tag: bytes("presence"), accessControl: control, neverLeavesKeychain: true)
        #expect(key.accessControl == control)
        let error = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.sign(
                bytes("m"), with: key, algorithm: .ecdsaSignatureMessageX962SHA256,
                authenticationContext: AuthenticationContext(interactionNotAllowed: true))
        }
        #expect(error?.status == .interactionNotAllowed)  // -25308: the use needs the person, who may not be asked
        #expect(error?.operation == .sign)
    }

    @Test(arguments: Transport.allCases) func rsa2048SignsWithPSSAndRoundTripsOAEP(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let key = try await temporary.keychain.generateKey(type: .rsa, sizeInBits: 2048, tag: bytes("com.example.rsa"))
        #expect(key.type == .rsa)
        #expect(key.sizeInBits == 2048)
        #expect(key.publicKey.externalRepresentation.prefix(4) == Data([0x30, 0x82, 0x01, 0x0A]))  // PKCS#1 RSAPublicKey, 270 bytes
        #expect(key.publicKey.externalRepresentation.count == 270)
        let found = try #require(try await temporary.keychain.key(tagged: bytes("com.example.rsa")))
        #expect(found == key)

        let pss = KeyAlgorithm.rsaSignatureMessagePSSSHA256
        let signature = try await temporary.keychain.sign(message, with: found, algorithm: pss)
        #expect(signature.count == 256)
        #expect(try await temporary.keychain.verify(signature, for: message, with: key.publicKey, algorithm: pss))
        #expect(try await temporary.keychain.verify(signature, for: bytes("tampered"), with: key.publicKey, algorithm: pss) == false)
        #expect(try OpenSSL.verifiesRSAPSS(signature, message: message, publicKey: key.publicKey.externalRepresentation))

        let pkcs1 = KeyAlgorithm.rsaSignatureMessagePKCS1v15SHA256
        let pkcs1Signature = try await temporary.keychain.sign(message, with: found, algorithm: pkcs1)
        #expect(try await temporary.keychain.verify(pkcs1Signature, for: message, with: key.publicKey, algorithm: pkcs1))

        let oaep = KeyAlgorithm.rsaEncryptionOAEPSHA256
        let ciphertext = try await temporary.keychain.encrypt(bytes("a secret"), for: key.publicKey, algorithm: oaep)
        #expect(ciphertext.count == 256)
        #expect(try await temporary.keychain.decrypt(ciphertext, with: found, algorithm: oaep) == bytes("a secret"))
        // OAEP SHA-256 leaves 256 - 2·32 - 2 = 190 bytes of room; more is errSecParam.
        let tooLong = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.encrypt(Data(count: 191), for: key.publicKey, algorithm: oaep)
        }
        #expect(tooLong?.status == .param)
        #expect(tooLong?.operation == .encrypt)
        // An EC algorithm on an RSA key is errSecParam, as SecKeyCreateSignature answers.
        let wrong = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.sign(message, with: found, algorithm: .ecdsaSignatureMessageX962SHA256)
        }
        #expect(wrong?.code == -50)
    }

    @Test(arguments: Transport.allCases) func ecdhAgreesTheSameSecretOnBothSides(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let alice = try await temporary.keychain.generateKey(type: .ellipticCurve, sizeInBits: 256, tag: bytes("alice"), neverLeavesKeychain: true)
        let bob = try await temporary.keychain.generateKey(type: .ellipticCurve, sizeInBits: 256, tag: bytes("bob"))
        let aliceSecret = try await temporary.keychain.sharedSecret(with: bob.publicKey, using: alice)
        let bobSecret = try await temporary.keychain.sharedSecret(with: alice.publicKey, using: bob)
        #expect(aliceSecret.count == 32)
        #expect(aliceSecret == bobSecret)

        let x963 = KeyAlgorithm.ecdhKeyExchangeStandardX963SHA256
        let derivedByAlice = try await temporary.keychain.sharedSecret(
            with: bob.publicKey, using: alice, algorithm: x963, requestedSize: 16, sharedInfo: bytes("info"))
        let derivedByBob = try await temporary.keychain.sharedSecret(
            with: alice.publicKey, using: bob, algorithm: x963, requestedSize: 16, sharedInfo: bytes("info"))
        #expect(derivedByAlice.count == 16)
        #expect(derivedByAlice == derivedByBob)

        // A peer on another curve: errSecDecode, as corecrypto reports it.
        let p384 = try await temporary.keychain.generateKey(type: .ellipticCurve, sizeInBits: 384, tag: bytes("p384"))
        let mismatch = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.sharedSecret(with: p384.publicKey, using: bob)
        }
        #expect(mismatch?.code == -26275)
    }

    @Test(arguments: Transport.allCases) func theSameKeyUnderTheSameTagIsADuplicate(transport: Transport) async throws {  // §1.4
        let temporary = TemporaryKeychain(transport: transport)
        let tag = bytes("dup")
        let key = try await temporary.keychain.generateKey(type: .ellipticCurve, sizeInBits: 256, tag: tag, label: "one")
        let duplicate = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.add(key, tag: tag, label: "another label")  // labl is no part of the key
        }
        #expect(duplicate?.status == .duplicateItem)
        #expect(duplicate?.code == -25299)
        #expect(duplicate?.operation == .add)
        // The key's bytes (v_Data, 04‖X‖Y‖K) appear in the error only by their length.
        #expect(duplicate?.description.contains("<redacted 97 bytes>") == true)
        let secretHex = try key.externalRepresentation().suffix(32).map { String(format: "%02x", $0) }.joined()
        #expect(duplicate?.description.lowercased().contains(secretHex) == false)
        // A key that never leaves the keychain is unique by the same attributes.
        let token = try await temporary.keychain.generateKey(type: .ellipticCurve, sizeInBits: 256, tag: bytes("t"), neverLeavesKeychain: true)
        let tokenDuplicate = await #expect(throws: KeychainError.self) { try await temporary.keychain.add(token, tag: bytes("t")) }
        #expect(tokenDuplicate?.code == -25299)
        // Another tag, or another key under the same tag, is another item (klbl and atag are in the key).
        let retagged = try await temporary.keychain.add(key, tag: bytes("dup2"))
        #expect(retagged.applicationTag == bytes("dup2"))
        let second = try await temporary.keychain.generateKey(type: .ellipticCurve, sizeInBits: 256, tag: tag)
        #expect(second.applicationLabel != key.applicationLabel)
    }

    @Test(arguments: Transport.allCases) func aMissingTagIsNilAndDeletingRemovesTheKey(transport: Transport) async throws {  // rule C1
        let temporary = TemporaryKeychain(transport: transport)
        #expect(try await temporary.keychain.key(tagged: bytes("nothing")) == nil)
        let key = try await temporary.keychain.generateKey(type: .ellipticCurve, sizeInBits: 384, tag: bytes("gone"))
        #expect(try await temporary.keychain.key(tagged: bytes("gone")) != nil)
        try await temporary.keychain.delete(key)
        #expect(try await temporary.keychain.key(tagged: bytes("gone")) == nil)
        let again = await #expect(throws: KeychainError.self) { try await temporary.keychain.delete(key) }
        #expect(again?.status == .itemNotFound)
        #expect(again?.code == -25300)

        _ = try await temporary.keychain.generateKey(type: .ellipticCurve, sizeInBits: 521, tag: bytes("many"))
        _ = try await temporary.keychain.generateKey(type: .ellipticCurve, sizeInBits: 256, tag: bytes("many"), neverLeavesKeychain: true)
        try await temporary.keychain.deleteKeys(tagged: bytes("many"))
        #expect(try await temporary.keychain.key(tagged: bytes("many")) == nil)
        let none = await #expect(throws: KeychainError.self) { try await temporary.keychain.deleteKeys(tagged: bytes("many")) }
        #expect(none?.code == -25300)
    }

    @Test(arguments: Transport.allCases) func badSizesAndTypesFailAsSecKeyCreateRandomKey(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        // A software key of a size no curve has, or a modulus past Apple's 8192 bits: errSecParam, as Apple's
        // SecKeyGeneratePair reports the key init's refusal.
        let curve = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.generateKey(type: .ellipticCurve, sizeInBits: 200, tag: bytes("x"))
        }
        #expect(curve?.code == -50)
        #expect(curve?.operation == .generateKey)
        let modulus = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.generateKey(type: .rsa, sizeInBits: 16384, tag: bytes("x"))
        }
        #expect(modulus?.code == -50)
        // A key that never leaves the keychain is P-256 only: errSecParam (-50).
        let size = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.generateKey(type: .ellipticCurve, sizeInBits: 384, tag: bytes("x"), neverLeavesKeychain: true)
        }
        #expect(size?.status == .param)
        let type = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.generateKey(type: .rsa, sizeInBits: 2048, tag: bytes("x"), neverLeavesKeychain: true)
        }
        #expect(type?.status == .param)
        // Nothing was stored.
        #expect(try await temporary.keychain.key(tagged: bytes("x")) == nil)
    }

    @Test func keysImportAndExportAppleRepresentations() throws {
        // A P-256 private key (X9.63 04‖X‖Y‖K) with K = 1: its public point is the generator.
        let generator = Data(
            hex: "046B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296"
                + "4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5")
        let privateBytes = generator + Data(repeating: 0, count: 31) + Data([1])
        let key = try PrivateKey(externalRepresentation: privateBytes, type: .ellipticCurve)
        #expect(key.publicKey.externalRepresentation == generator)
        #expect(try key.externalRepresentation() == privateBytes)
        #expect(key.applicationLabel == (try sha1(of: generator)))
        #expect(try PublicKey(externalRepresentation: generator, type: .ellipticCurve) == key.publicKey)
        let garbage = #expect(throws: KeychainError.self) { try PublicKey(externalRepresentation: Data([4, 1, 2]), type: .ellipticCurve) }
        #expect(garbage?.status == .param)
        #expect(garbage?.operation == .importKey)
        #expect(!String(describing: key).contains("04"))
        #expect(!String(reflecting: key).lowercased().contains("6b17d1f2"))
    }
}

/// The SHA-1 of `data`, by `openssl dgst`.
private func sha1(of data: Data) throws -> Data {
    let output = try OpenSSL.run(["dgst", "-sha1", "-binary"], input: data)
    return output
}

/// Independent checks with the `openssl` command: signatures Coffer made verify outside Coffer.
private enum OpenSSL {
    /// Runs `openssl` with `arguments`, feeding `input`; its standard output, or an error when it fails.
    static func run(_ arguments: [String], input: Data = Data()) throws -> Data {
        // ChildProcess, not Foundation's Process: see TestProcesses for why the tests never use the latter.
        let outcome = try ChildProcess.run(["/usr/bin/openssl"] + arguments, input: input, errors: .null)
        guard outcome.status == 0 else { throw OpenSSLFailure(status: outcome.status) }
        return outcome.output
    }

    struct OpenSSLFailure: Error { let status: Int32 }

    /// Whether `openssl dgst -sha256 -verify` accepts an X9.62 signature of `message` by a P-256 key.
    static func verifiesECDSA(_ signature: Data, message: Data, publicKey: Data) throws -> Bool {
        // SubjectPublicKeyInfo: id-ecPublicKey, prime256v1, then the X9.63 point.
        let spki = Data(hex: "3059301306072A8648CE3D020106082A8648CE3D030107034200") + publicKey
        return try verifies(signature, message: message, publicKeyPEM: pem(spki, label: "PUBLIC KEY"), options: [])
    }

    /// Whether `openssl` accepts an RSA-PSS signature (SHA-256, MGF1 SHA-256, 32-byte salt) of `message`.
    static func verifiesRSAPSS(_ signature: Data, message: Data, publicKey: Data) throws -> Bool {
        try verifies(
            signature, message: message, publicKeyPEM: pem(publicKey, label: "RSA PUBLIC KEY"),
            options: ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:32", "-sigopt", "rsa_mgf1_md:sha256"])
    }

    private static func verifies(_ signature: Data, message: Data, publicKeyPEM: String, options: [String]) throws -> Bool {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-openssl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyFile = folder.appendingPathComponent("key.pem")
        let signatureFile = folder.appendingPathComponent("signature")
        try Data(publicKeyPEM.utf8).write(to: keyFile)
        try signature.write(to: signatureFile)
        do {
            let output = try run(
                ["dgst", "-sha256", "-verify", keyFile.path] + options + ["-signature", signatureFile.path], input: message)
            return String(decoding: output, as: UTF8.self).contains("Verified OK")
        } catch is OpenSSLFailure {
            return false
        }
    }

    private static func pem(_ der: Data, label: String) -> String {
        let base64 = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN \(label)-----\n\(base64)\n-----END \(label)-----\n"
    }
}
