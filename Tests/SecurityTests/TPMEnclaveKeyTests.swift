import CofferTestSupport
import CryptoKit
import Foundation
import KeychainModel
import KeychainOperations
import KeychainSelection
import Keystore
@_spi(Testing) import Security
import TPMFixture
import Testing
import TrustedPlatformModule

/// Secure Enclave keys of a keychain bound to a TPM (swtpm): P-256 keys made inside the TPM, through Apple's SecKey
/// calls and CryptoKit, checked against swift-crypto, on both transports; Ed25519 keys stay sealed by the keystore.
@Suite(.timeLimit(.minutes(10))) struct TPMEnclaveKeyTests {
    /// A fresh keychain bound to `tpm`, reached through `transport`.
    private func withTPMKeychain<Result>(_ transport: Transport, tpm: SoftwareTPM, folder: URL? = nil, _ body: () throws -> Result) throws -> Result {
        let folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("coffer-tpm-keys-\(UUID().uuidString)")
        switch transport {
        case .embedded:
            return try SecurityTesting.withKeychain(at: folder, environment: ["COFFER_TPM": tpm.tcti], body)
        case .daemon:
            let daemon = try InProcessDaemon(folder: KeychainFolder(url: folder), groups: nil, tpm: .tcti(tpm.tcti))
            return try withExtendedLifetime(daemon) { try SecurityTesting.withKeychain(socket: daemon.socketPath, body) }
        }
    }

    private func enclaveKey(_ type: CFString = kSecAttrKeyTypeECSECPrimeRandom) throws -> SecKey {
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: type, kSecAttrKeySizeInBits as String: 256, kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
        ]
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateRandomKey(parameters as CFDictionary, &error) else {
            throw error!.takeRetainedValue() as Error
        }
        return key
    }

    private func holder(of key: SecKey) -> String? {
        (SecKeyCopyAttributes(key) as? [String: Any])?[kSecAttrCofferKeyHolder as String] as? String
    }

    @Test(arguments: Transport.allCases) func secKeySignaturesAndAgreementsRunInsideTheTPM(transport: Transport) throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        try withTPMKeychain(transport, tpm: tpm) {
            let key = try enclaveKey()
            #expect(holder(of: key) == kSecAttrCofferKeyHolderTPM as String)
            let attributes = SecKeyCopyAttributes(key) as? [String: Any]
            #expect(attributes?[kSecAttrTokenID as String] as? String == kSecAttrTokenIDSecureEnclave as String)
            let publicKey = try #require(SecKeyCopyPublicKey(key))
            let publicBytes = try #require(SecKeyCopyExternalRepresentation(publicKey, nil) as Data?)
            #expect(SecKeyCopyExternalRepresentation(key, nil) == nil, "a key inside the TPM is not exported")

            let message = Data("a challenge signed inside the TPM".utf8)
            let signature = try #require(SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message as CFData, nil) as Data?)
            let verifier = try P256.Signing.PublicKey(x963Representation: publicBytes)
            #expect(verifier.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: message))
            // A SHA-384 digest: X9.62's leftmost 256 bits, as Apple's ECDSA signs it.
            let digest = Data(SHA384.hash(data: message))
            let digestSignature = try #require(SecKeyCreateSignature(key, .ecdsaSignatureDigestX962SHA384, digest as CFData, nil))
            #expect(SecKeyVerifySignature(publicKey, .ecdsaSignatureDigestX962SHA384, digest as CFData, digestSignature, nil))

            let peer = P256.KeyAgreement.PrivateKey()
            let peerKey = try #require(
                SecKeyCreateWithData(
                    peer.publicKey.x963Representation as CFData,
                    [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass as String: kSecAttrKeyClassPublic] as CFDictionary,
                    nil))
            let raw = try #require(SecKeyCopyKeyExchangeResult(key, .ecdhKeyExchangeStandard, peerKey, [:] as CFDictionary, nil) as Data?)
            let expected = try peer.sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(x963Representation: publicBytes))
            #expect(raw == expected.withUnsafeBytes { Data($0) })
            let info = Data("session".utf8)
            let derived = try #require(
                SecKeyCopyKeyExchangeResult(
                    key, .ecdhKeyExchangeStandardX963SHA256, peerKey,
                    [SecKeyKeyExchangeParameter.requestedSize.rawValue: 32, SecKeyKeyExchangeParameter.sharedInfo.rawValue: info] as CFDictionary,
                    nil) as Data?)
            #expect(derived == expected.x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: info, outputByteCount: 32).withUnsafeBytes { Data($0) })

            let secret = Data("sealed to a key inside the TPM".utf8)
            let sealed = try #require(SecKeyCreateEncryptedData(publicKey, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM, secret as CFData, nil))
            #expect(SecKeyCreateDecryptedData(key, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM, sealed, nil) as Data? == secret)
        }
    }

    @Test(arguments: Transport.allCases) func cryptoKitSecureEnclaveKeysAreTPMKeys(transport: Transport) throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        try withTPMKeychain(transport, tpm: tpm) {
            let signing = try SecureEnclave.P256.Signing.PrivateKey()
            let message = Data("login challenge".utf8)
            #expect(signing.publicKey.isValidSignature(try signing.signature(for: message), for: message))
            let restored = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: signing.dataRepresentation)
            #expect(restored.publicKey.isValidSignature(try restored.signature(for: message), for: message))
            #expect(signing.dataRepresentation.first == 3, "the seal of a key inside the TPM")

            let agreement = try SecureEnclave.P256.KeyAgreement.PrivateKey()
            let peer = P256.KeyAgreement.PrivateKey()
            #expect(try agreement.sharedSecretFromKeyAgreement(with: peer.publicKey) == peer.sharedSecretFromKeyAgreement(with: agreement.publicKey))
        }
    }

    @Test(arguments: Transport.allCases) func aDeletedKeyItemTakesItsKeyWithIt(transport: Transport) throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        try withTPMKeychain(transport, tpm: tpm) { try deleteTheItemThenSign(holder: kSecAttrCofferKeyHolderTPM) }
    }

    @Test(arguments: Transport.allCases) func aDeletedKeyItemTakesItsKeyWithItWithoutATPM(transport: Transport) throws {
        try withFreshKeychain(transport: transport) { try deleteTheItemThenSign(holder: kSecAttrCofferKeyHolderKeystore) }
    }

    /// Makes a permanent Secure Enclave key, signs with it, deletes its item, and checks that the references held from
    /// before no longer sign (-25300).
    private func deleteTheItemThenSign(holder expected: CFString) throws {
        let label = "signing key"
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true, kSecAttrLabel as String: label],
        ]
        var error: Unmanaged<CFError>?
        let made = try #require(SecKeyCreateRandomKey(parameters as CFDictionary, &error))
        let query: [String: Any] = [kSecClass as String: kSecClassKey, kSecAttrLabel as String: label, kSecReturnRef as String: true]
        var found: CFTypeRef?
        #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess)
        let key = try #require(found as! SecKey?)
        #expect(holder(of: key) == expected as String)
        #expect(SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, Data("m".utf8) as CFData, nil) != nil)
        #expect(SecItemDelete([kSecClass as String: kSecClassKey, kSecAttrLabel as String: label] as CFDictionary) == errSecSuccess)
        #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecItemNotFound)
        // The key lived as long as its item: the references held from before sign no more.
        for held in [key, made] {
            var refusal: Unmanaged<CFError>?
            #expect(SecKeyCreateSignature(held, .ecdsaSignatureMessageX962SHA256, Data("m".utf8) as CFData, &refusal) == nil)
            #expect(refusal.map { CFErrorGetCode($0.takeRetainedValue()) } == Int(errSecItemNotFound))
        }
    }

    @Test func aKeyInsideTheTPMWasMadeThereAndIsInNoFileEvenWrapped() throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-tpm-at-rest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (seal, publicKey) = try withTPMKeychain(.embedded, tpm: tpm, folder: folder) { () throws -> (Data, Data) in
            let parameters: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true, kSecAttrLabel as String: "at rest"],
            ]
            var error: Unmanaged<CFError>?
            let key = try #require(SecKeyCreateRandomKey(parameters as CFDictionary, &error))
            let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
            let publicKey = try #require(SecKeyCopyPublicKey(key))
            let publicBytes = try #require(SecKeyCopyExternalRepresentation(publicKey, nil) as Data?)
            return (try #require(attributes["toid"] as? Data), publicBytes)
        }
        // The test opens the seal with the keystore, as only the keychain can: inside is the TPM's wrapped form of the
        // key (TPM2B_PRIVATE, encrypted by the TPM's storage key, then TPM2B_PUBLIC), never a scalar.
        let keystore = try Keystore.open(folder: KeychainFolder(url: folder), tpm: .tcti(tpm.tcti))
        #expect(try #require(TokenKeySealLayout(parsing: seal)).isHeldByTPM)
        let wrapped = [UInt8](try openTokenKeySeal(seal, keystore: keystore))
        let privateSize = Int(wrapped[0]) << 8 | Int(wrapped[1])
        let publicArea = Array(wrapped[(2 + privateSize + 2)...])
        #expect(publicArea[0..<4] == [0x00, 0x23, 0x00, 0x0B], "an ECC key named with SHA-256")
        let attributes = publicArea[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        // fixedTPM, fixedParent, sensitiveDataOrigin: made inside this TPM, which never lets it out or moves it.
        #expect(attributes & 0x32 == 0x32, "attributes 0x\(String(attributes, radix: 16))")
        let point: Data = Data([0, 32]) + publicKey[1..<33] + Data([0, 32]) + publicKey[33..<65]
        #expect(Data(publicArea.suffix(68)) == point)
        // Not even the wrapped form is in any file of the keychain in the clear.
        for url in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap({ $0 as? URL }) ?? [] {
            guard let contents = try? Data(contentsOf: url) else { continue }
            #expect(contents.range(of: Data(wrapped[2..<(2 + privateSize)])) == nil, "the TPM's wrapped key in \(url.lastPathComponent)")
        }
    }

    @Test func ed25519KeysStaySealedByTheKeystore() throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        try withTPMKeychain(.embedded, tpm: tpm) {
            let key = try enclaveKey(kSecAttrKeyTypeEd25519)
            #expect(holder(of: key) == kSecAttrCofferKeyHolderKeystore as String)
            #expect(SecKeyCreateSignature(key, .edDSASignatureMessageCurve25519SHA512, Data("m".utf8) as CFData, nil) != nil)
        }
    }

    @Test func aKeyInsideTheTPMIsUselessOnAnotherTPMEvenWithTheKeychain() throws {
        let first = try SoftwareTPM()
        defer { first.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-tpm-keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (handle, recoveryKey) = try withTPMKeychain(.embedded, tpm: first, folder: folder) {
            let key = try SecureEnclave.P256.Signing.PrivateKey()
            let client = KeychainLocation.client(environment: ["COFFER_HOME": folder.path, "COFFER_TPM": first.tcti])
            let recovery = try client.blocking.changeDeviceKeyBinding(.recoveryKey(renew: false, passcode: nil))
            return (key.dataRepresentation, try #require(recovery))
        }
        // The keychain recovered onto another TPM: its class keys open the key's seal, and the TPM refuses what
        // was wrapped by the first.
        let second = try SoftwareTPM()
        defer { second.stop() }
        let client = KeychainLocation.client(environment: ["COFFER_HOME": folder.path, "COFFER_TPM": second.tcti])
        #expect(try client.blocking.changeDeviceKeyBinding(DeviceKeyBindingChange.recover(recoveryKey: recoveryKey, passcode: nil)) == nil)
        try withTPMKeychain(.embedded, tpm: second, folder: folder) {
            let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: handle)
            do {
                _ = try key.signature(for: Data("m".utf8))
                Issue.record("a key wrapped by another TPM signed")
            } catch let error as NSError {
                #expect(error.code == Int(errSecNotAvailable))
            }
        }
    }
}
