import CofferTestSupport
import CryptoKit
import Foundation
import KeychainKeys
import KeychainModel
import KeychainOperations
import KeychainSelection
import Keystore
import Query
@_spi(Testing) import Security
import Testing

/// CryptoKit's post-quantum Secure Enclave keys (`SecureEnclave.MLKEM768`, `.MLKEM1024`, `.MLDSA65`, `.MLDSA87`), written
/// the way Apple's documentation uses them, on both transports: the keychain decapsulates and signs, swift-crypto's
/// own keys encapsulate and verify, and the seed is in no file.
@Suite(.timeLimit(.minutes(10))) struct CryptoKitPostQuantumTests {
    @Test(arguments: Transport.allCases) func mlkemKeysDecapsulateWhatSoftwareKeysEncapsulate(transport: Transport) throws {
        try withFreshKeychain(transport: transport) {
            let key = try SecureEnclave.MLKEM768.PrivateKey()
            let sent = try key.publicKey.encapsulate()
            #expect(try key.decapsulate(sent.encapsulated) == sent.sharedSecret)
            // A handle kept in a file and read back is the same key.
            let restored = try SecureEnclave.MLKEM768.PrivateKey(dataRepresentation: key.dataRepresentation)
            #expect(restored.publicKey.rawRepresentation == key.publicKey.rawRepresentation)
            #expect(try restored.decapsulate(sent.encapsulated) == sent.sharedSecret)
            // ML-KEM's implicit rejection: an altered ciphertext gives another secret, not an error.
            var altered = sent.encapsulated
            altered[altered.startIndex] ^= 1
            #expect(try key.decapsulate(altered) != sent.sharedSecret)
            #expect(throws: CryptoKitError.self) { try key.decapsulate(sent.encapsulated.dropLast()) }

            let larger = try SecureEnclave.MLKEM1024.PrivateKey(accessControl: Self.whenUnlocked)
            let toLarger = try MLKEM1024.PublicKey(rawRepresentation: larger.publicKey.rawRepresentation).encapsulate()
            #expect(toLarger.encapsulated.count == 1568)
            #expect(try larger.decapsulate(toLarger.encapsulated) == toLarger.sharedSecret)
            #expect(throws: CryptoKitError.self) { try larger.decapsulate(sent.encapsulated) }
        }
    }

    @Test(arguments: Transport.allCases) func mldsaSignaturesMadeInTheKeychainVerifyWithSwiftCrypto(transport: Transport) throws {
        try withFreshKeychain(transport: transport) {
            let key = try SecureEnclave.MLDSA65.PrivateKey()
            let message = Data("release v2.0 tarball".utf8)
            let signature = try key.signature(for: message)
            #expect(signature.count == 3309)
            let verifier = try MLDSA65.PublicKey(rawRepresentation: key.publicKey.rawRepresentation)
            #expect(verifier.isValidSignature(signature, for: message))
            #expect(!verifier.isValidSignature(signature, for: message + Data([0])))
            let context = Data("coffer-test".utf8)
            let bound = try key.signature(for: message, context: context)
            #expect(verifier.isValidSignature(bound, for: message, context: context))
            #expect(!verifier.isValidSignature(bound, for: message))
            #expect(throws: CryptoKitError.self) { try key.signature(for: message, context: Data(count: 256)) }

            let strongest = try SecureEnclave.MLDSA87.PrivateKey(dataRepresentation: try SecureEnclave.MLDSA87.PrivateKey().dataRepresentation)
            let strong = try strongest.signature(for: message)
            #expect(strong.count == 4627)
            #expect(strongest.publicKey.isValidSignature(strong, for: message))
        }
    }

    @Test(arguments: Transport.allCases) func keysWorkThroughCryptoKitsGenericInterfaces(transport: Transport) throws {
        func roundTrip<Key: KEMPrivateKey>(_: Key.Type) throws -> Bool {
            let key = try Key.generate()
            let sent = try key.publicKey.encapsulate()
            return try key.decapsulate(sent.encapsulated) == sent.sharedSecret
        }
        try withFreshKeychain(transport: transport) {
            #expect(try roundTrip(SecureEnclave.MLKEM768.PrivateKey.self))
            #expect(try roundTrip(SecureEnclave.MLKEM1024.PrivateKey.self))
            // The HPKE suite Apple's systems default to, with a software X-Wing key, beside the enclave keys.
            let recipient = try XWingMLKEM768X25519.PrivateKey.generate()
            let suite = HPKE.Ciphersuite.XWingMLKEM768X25519_SHA256_AES_GCM_256
            var sender = try HPKE.Sender(recipientKey: recipient.publicKey, ciphersuite: suite, info: Data("info".utf8))
            let sealed = try sender.seal(Data("hello".utf8))
            var opener = try HPKE.Recipient(privateKey: recipient, ciphersuite: suite, info: Data("info".utf8), encapsulatedKey: sender.encapsulatedKey)
            #expect(try opener.open(sealed) == Data("hello".utf8))
        }
    }

    @Test(arguments: Transport.allCases) func handlesOfAnotherKindAnotherKeychainOrAlteredAreRefused(transport: Transport) throws {
        let (kem, dsa) = try withFreshKeychain(transport: transport) {
            (try SecureEnclave.MLKEM768.PrivateKey().dataRepresentation, try SecureEnclave.MLDSA65.PrivateKey().dataRepresentation)
        }
        try withFreshKeychain(transport: transport) {
            // Bytes that are no handle of the type, or a handle of another kind: CryptoKitError at once.
            #expect(throws: CryptoKitError.self) { try SecureEnclave.MLKEM768.PrivateKey(dataRepresentation: Data([4, 1, 2])) }
            #expect(throws: CryptoKitError.self) { try SecureEnclave.MLKEM1024.PrivateKey(dataRepresentation: kem) }
            #expect(throws: CryptoKitError.self) { try SecureEnclave.MLDSA65.PrivateKey(dataRepresentation: kem) }
            #expect(throws: CryptoKitError.self) { try SecureEnclave.MLDSA87.PrivateKey(dataRepresentation: dsa) }
            let p256 = try SecureEnclave.P256.Signing.PrivateKey().dataRepresentation
            #expect(throws: CryptoKitError.self) { try SecureEnclave.MLDSA65.PrivateKey(dataRepresentation: p256) }
            // Another keychain's handle, and altered ones of this keychain: CryptoKitError.authenticationFailure when
            // read, as Apple's enclave refuses a blob it did not make.
            let authenticationFailure = CryptoKitSecureEnclaveTests.isAuthenticationFailure
            #expect(authenticationFailure { try SecureEnclave.MLDSA65.PrivateKey(dataRepresentation: dsa) })
            #expect(authenticationFailure { try SecureEnclave.MLKEM768.PrivateKey(dataRepresentation: kem) })
            let own = try SecureEnclave.MLKEM768.PrivateKey().dataRepresentation
            var altered = own
            altered[altered.count - 20] ^= 0x40
            #expect(authenticationFailure { try SecureEnclave.MLKEM768.PrivateKey(dataRepresentation: altered) })
            // Cut inside the sealed part, or its public key changed: refused at once too, never a crash.
            #expect(throws: CryptoKitError.self) { try SecureEnclave.MLKEM768.PrivateKey(dataRepresentation: own.dropLast(7)) }
            var otherPublicKey = own
            otherPublicKey[otherPublicKey.count / 2] ^= 0x01
            #expect(throws: CryptoKitError.self) { try SecureEnclave.MLKEM768.PrivateKey(dataRepresentation: otherPublicKey) }
            let key = try SecureEnclave.MLKEM768.PrivateKey(dataRepresentation: own)
            let sent = try key.publicKey.encapsulate()
            #expect(try key.decapsulate(sent.encapsulated) == sent.sharedSecret)
        }
    }

    @Test(arguments: Transport.allCases) func aKeyDoesOnlyWhatItsKindDoes(transport: Transport) throws {
        try withFreshKeychain(transport: transport) {
            let client = SharedKeychainClient.current
            let kem = try SecureEnclave.MLKEM768.PrivateKey().dataRepresentation
            let dsa = try SecureEnclave.MLDSA65.PrivateKey().dataRepresentation
            let p256 = try SecureEnclave.P256.Signing.PrivateKey().dataRepresentation
            let misuses: [TokenKeyUse] = [
                TokenKeyUse(key: kem, operation: .signWithContext(Data()), algorithm: "algid:sign:ML-DSA:message", input: Data([1])),
                TokenKeyUse(key: dsa, operation: .decapsulate, algorithm: "algid:kem:ML-KEM", input: Data(count: 1088)),
                TokenKeyUse(key: p256, operation: .decapsulate, algorithm: "algid:kem:ML-KEM", input: Data(count: 1088)),
                // The right operation with another algorithm's name.
                TokenKeyUse(key: dsa, operation: .sign, algorithm: "algid:sign:ECDSA:message-X962:SHA256", input: Data([1])),
                // A raw client's ciphertext of the wrong length, and a context too long.
                TokenKeyUse(key: kem, operation: .decapsulate, algorithm: "algid:kem:ML-KEM", input: Data(count: 1087)),
                TokenKeyUse(key: dsa, operation: .signWithContext(Data(count: 256)), algorithm: "algid:sign:ML-DSA:message", input: Data([1])),
            ]
            for use in misuses {
                let answer = try client.sendBlocking(.useTokenKey(use))
                guard case .failure(let status, _) = answer else {
                    Issue.record("\(use.operation) answered \(answer)")
                    continue
                }
                #expect(status == .param, "\(use.operation)")
            }
        }
    }

    @Test(arguments: Transport.allCases) func theSeedIsInNoFileOfTheKeychain(transport: Transport) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-pq-at-rest-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let handles: [(kind: TokenKeyCreation.Kind, sealed: Data)] = try withKeychain(at: folder, transport: transport) {
            let handles: [(kind: TokenKeyCreation.Kind, sealed: Data)] = [
                (.mlkem768, try SecureEnclave.MLKEM768.PrivateKey().dataRepresentation),
                (.mlkem1024, try SecureEnclave.MLKEM1024.PrivateKey().dataRepresentation),
                (.mldsa65, try SecureEnclave.MLDSA65.PrivateKey().dataRepresentation),
                (.mldsa87, try SecureEnclave.MLDSA87.PrivateKey().dataRepresentation),
            ]
            // Stored the way apps keep such handles: as a generic password's data.
            for (index, handle) in handles.enumerated() {
                let add: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "pq", kSecAttrAccount as String: "\(index)",
                    kSecValueData as String: handle.sealed,
                ]
                #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            }
            // And as a key item, as Coffer's Swift API and `coffer create-key -t ml-dsa-65` store one.
            let stored = try storePostQuantumKeyItem(.mldsa65, tag: Data("at-rest".utf8))
            return handles + [(.mldsa65, stored.handle.sealed)]
        }
        // The test opens the seals with the keystore, as only the keychain can, to learn the seeds it then looks for.
        let keystore = try Keystore.open(folder: KeychainFolder(url: folder))
        let files = try Self.files(under: folder)
        #expect(!files.isEmpty)
        for handle in handles {
            let seed = try openTokenKeySeal(handle.sealed, keystore: keystore)
            let publicKey = try #require(TokenKeySealLayout(parsing: handle.sealed)).publicKey
            let derived: Data =
                switch handle.kind {
                case .mlkem768: try MLKEM768.PrivateKey(seedRepresentation: seed, publicKey: nil).publicKey.rawRepresentation
                case .mlkem1024: try MLKEM1024.PrivateKey(seedRepresentation: seed, publicKey: nil).publicKey.rawRepresentation
                case .mldsa65: try MLDSA65.PrivateKey(seedRepresentation: seed, publicKey: nil).publicKey.rawRepresentation
                case .mldsa87: try MLDSA87.PrivateKey(seedRepresentation: seed, publicKey: nil).publicKey.rawRepresentation
                default: Data()
                }
            #expect(derived == publicKey, "the seed the test looks for is \(handle.kind)'s")
            #expect(handle.sealed.range(of: seed) == nil, "the handle holds the seed sealed, never in the clear")
            for (path, contents) in files {
                #expect(contents.range(of: seed) == nil, "\(handle.kind)'s seed found in \(path)")
            }
        }
    }

    private static var whenUnlocked: SecAccessControl {
        SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [], nil)!
    }

    /// The OSStatus the `NSError` `body` throws carries; 0 when it throws none.
    private static func status(_ body: () throws -> Void) -> Int {
        do {
            try body()
            return 0
        } catch let error as NSError {
            return error.domain == "NSOSStatusErrorDomain" ? error.code : -1
        }
    }

    /// Every regular file under `folder` (the database, its journal, the keybag, the device key…), read whole.
    private static func files(under folder: URL) throws -> [(String, Data)] {
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]))
        return try enumerator.compactMap { entry in
            guard let url = entry as? URL, try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { return nil }
            return (url.path, try Data(contentsOf: url))
        }
    }
}
