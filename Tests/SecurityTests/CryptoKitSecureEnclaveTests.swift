import CofferTestSupport
import CryptoKit
import Foundation
import Security
import Testing

/// CryptoKit's `SecureEnclave` keys, as Apple code uses them, on both transports: made and used by the
/// keychain, their handles reusable there and useless elsewhere.
@Suite(.timeLimit(.minutes(10))) struct CryptoKitSecureEnclaveTests {
    @Test(arguments: Transport.allCases) func signingKeysSignWhatTheirPublicKeysVerify(transport: Transport) throws {
        try withFreshKeychain(transport: transport) {
            #expect(SecureEnclave.isAvailable)
            let key = try SecureEnclave.P256.Signing.PrivateKey()
            let message = Data("login challenge".utf8)
            let signature = try key.signature(for: message)
            #expect(key.publicKey.isValidSignature(signature, for: message))
            #expect(!key.publicKey.isValidSignature(signature, for: message + Data([0])))
            let digestSignature = try key.signature(for: SHA256.hash(data: message))
            #expect(key.publicKey.isValidSignature(digestSignature, for: SHA256.hash(data: message)))

            let restored = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation)
            #expect(restored.publicKey.rawRepresentation == key.publicKey.rawRepresentation)
            #expect(restored.publicKey.isValidSignature(try restored.signature(for: message), for: message))
            #expect(throws: CryptoKitError.self) { try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data([1, 2, 3])) }
        }
    }

    @Test(arguments: Transport.allCases) func keyAgreementMatchesASoftwarePeer(transport: Transport) throws {
        try withFreshKeychain(transport: transport) {
            let enclave = try SecureEnclave.P256.KeyAgreement.PrivateKey()
            let peer = P256.KeyAgreement.PrivateKey()
            let ours = try enclave.sharedSecretFromKeyAgreement(with: peer.publicKey)
            let theirs = try peer.sharedSecretFromKeyAgreement(with: enclave.publicKey)
            #expect(ours == theirs)
            let info = Data("session".utf8)
            #expect(
                ours.hkdfDerivedSymmetricKey(using: SHA256.self, salt: Data(), sharedInfo: info, outputByteCount: 32)
                    == theirs.hkdfDerivedSymmetricKey(using: SHA256.self, salt: Data(), sharedInfo: info, outputByteCount: 32))
        }
    }

    @Test(arguments: Transport.allCases) func aHandleFromAnotherKeychainOrAlteredIsRefusedWhenRead(transport: Transport) throws {
        let handle = try withFreshKeychain(transport: transport) { try SecureEnclave.P256.Signing.PrivateKey().dataRepresentation }
        try withFreshKeychain(transport: transport) {
            // As Apple's enclave refuses a blob it did not make: at once, not at the first signature.
            #expect(Self.isAuthenticationFailure { try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: handle) })
            #expect(Self.isAuthenticationFailure { try SecureEnclave.P256.KeyAgreement.PrivateKey(dataRepresentation: handle) })
            var altered = try SecureEnclave.P256.KeyAgreement.PrivateKey().dataRepresentation
            altered[altered.count - 1] ^= 0x01
            #expect(Self.isAuthenticationFailure { try SecureEnclave.P256.KeyAgreement.PrivateKey(dataRepresentation: altered) })
            // This keychain's own handle still reads and signs.
            let own = try SecureEnclave.P256.Signing.PrivateKey()
            let again = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: own.dataRepresentation)
            #expect(own.publicKey.isValidSignature(try again.signature(for: Data("m".utf8)), for: Data("m".utf8)))
        }
    }

    /// Whether `body` threw `CryptoKitError.authenticationFailure`.
    static func isAuthenticationFailure(_ body: () throws -> Any) -> Bool {
        do {
            _ = try body()
            return false
        } catch CryptoKitError.authenticationFailure {
            return true
        } catch {
            return false
        }
    }

    @Test(arguments: Transport.allCases) func anEd25519KeysHandleIsNoP256Key(transport: Transport) throws {
        // The keychain keeps Ed25519 keys too (Coffer's extension); CryptoKit's P-256 types refuse their handles
        // as they refuse any bytes that are no P-256 key's, rather than reading a public key of the wrong kind.
        try withFreshKeychain(transport: transport) {
            let parameters: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeEd25519, kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: false],
            ]
            var error: Unmanaged<CFError>?
            let key = try #require(SecKeyCreateRandomKey(parameters as CFDictionary, &error))
            let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
            let handle = try #require(attributes["toid"] as? Data)
            #expect(throws: CryptoKitError.self) { try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: handle) }
            #expect(throws: CryptoKitError.self) { try SecureEnclave.P256.KeyAgreement.PrivateKey(dataRepresentation: handle) }
        }
    }
}
