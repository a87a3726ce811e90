import Crypto
import Foundation
import KeychainModel

/// File class B's asymmetric class key (Apple's "Protected Unless Open"): a static X25519 key pair per keybag.
///
/// A file key is wrapped with a key agreed between a one-time key pair and the class's public key, so a file
/// can be created while the keychain is locked; unwrapping needs the class's private key, which is wrapped
/// under a key derived from the `ak` class key and so is usable exactly when class A is.
enum FileClassBKeys {
    private static let privateKeyWrappingLabel = "coffer file class B private key v1"
    private static let agreementLabel = "coffer file class B wrapping v1"

    /// A new key pair, its private half wrapped under `classA`'s file-key wrapping key.
    static func makePair(classA: ClassKeyMaterial) -> Keybag.FileClassBKeyPair {
        let privateKey = Curve25519.KeyAgreement.PrivateKey()
        let raw = SymmetricKey(data: privateKey.rawRepresentation)
        // A 256-bit key always wraps; a failure here would be a broken crypto library.
        let wrapped = try! AES.KeyWrap.wrap(raw, using: privateKeyWrappingKey(classA))
        return Keybag.FileClassBKeyPair(publicKey: privateKey.publicKey.rawRepresentation, wrappedPrivateKey: wrapped)
    }

    /// The class's private key, unwrapped with `classA`'s material.
    static func privateKey(
        of pair: Keybag.FileClassBKeyPair, classA: ClassKeyMaterial
    ) throws(KeystoreError) -> Curve25519.KeyAgreement.PrivateKey {
        let raw = try KeyWrap.unwrap(pair.wrappedPrivateKey, with: privateKeyWrappingKey(classA))
        do {
            return try raw.withUnsafeBytes { bytes in try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: bytes) }
        } catch {
            throw .wrappedKeyCorrupt
        }
    }

    /// Wraps `fileKey` for the class's public key: a one-time key pair, X25519 with the class's public key,
    /// HKDF-SHA256 (salt: both public keys) to the wrapping key. Answers the wrapped key and the one-time public key.
    static func wrap(_ fileKey: SymmetricKey, for pair: Keybag.FileClassBKeyPair) throws(KeystoreError) -> (wrapped: Data, ephemeral: Data) {
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        let classPublic: Curve25519.KeyAgreement.PublicKey
        do {
            classPublic = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: pair.publicKey)
        } catch {
            throw .keybagDamaged(reason: "file class B's public key is malformed")
        }
        let ephemeralPublic = ephemeral.publicKey.rawRepresentation
        let wrappingKey = try agreedKey(ephemeral, classPublic, ephemeralPublic: ephemeralPublic, classPublic: pair.publicKey)
        return (try KeyWrap.wrap(fileKey, with: wrappingKey), ephemeralPublic)
    }

    /// Unwraps a key ``wrap(_:for:)`` wrapped, with the class's private key.
    static func unwrap(
        _ wrapped: Data, ephemeralPublicKey: Data, privateKey: Curve25519.KeyAgreement.PrivateKey, pair: Keybag.FileClassBKeyPair
    ) throws(KeystoreError) -> SymmetricKey {
        let ephemeral: Curve25519.KeyAgreement.PublicKey
        do {
            ephemeral = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: ephemeralPublicKey)
        } catch {
            throw .wrappedKeyCorrupt
        }
        let wrappingKey = try agreedKey(privateKey, ephemeral, ephemeralPublic: ephemeralPublicKey, classPublic: pair.publicKey)
        return try KeyWrap.unwrap(wrapped, with: wrappingKey)
    }

    private static func agreedKey(
        _ privateKey: Curve25519.KeyAgreement.PrivateKey, _ publicKey: Curve25519.KeyAgreement.PublicKey,
        ephemeralPublic: Data, classPublic: Data
    ) throws(KeystoreError) -> SymmetricKey {
        do {
            let secret = try privateKey.sharedSecretFromKeyAgreement(with: publicKey)
            return secret.hkdfDerivedSymmetricKey(
                using: SHA256.self, salt: ephemeralPublic + classPublic, sharedInfo: Data(agreementLabel.utf8), outputByteCount: 32)
        } catch {
            // An all-zero shared secret (a low-order point) is refused by swift-crypto.
            throw .wrappedKeyCorrupt
        }
    }

    private static func privateKeyWrappingKey(_ classA: ClassKeyMaterial) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: classA.fileKeyWrapping, info: Data(privateKeyWrappingLabel.utf8), outputByteCount: 32)
    }
}
