import Crypto
import Foundation

extension AsymmetricKey {
    /// The key in `externalRepresentation` (`SecKeyCreateWithData`), its size read from the bytes.
    ///
    /// EC: X9.63 `04‖X‖Y` (public) or `04‖X‖Y‖K` (private) on P-256, P-384 or P-521. RSA: PKCS#1 `RSAPublicKey`
    /// (or X.509 `SubjectPublicKeyInfo`, which Apple's corecrypto also reads) or PKCS#1 `RSAPrivateKey` DER,
    /// with any modulus up to 8192 bits (weak ones included, as Apple imports them). Ed25519: the 32-byte encoded
    /// point (public) or the 32-byte seed (private), RFC 8032. Bytes that are not such a key are `errSecParam`,
    /// as Apple reports them; so are P-192/P-224 keys, which Apple reads but swift-crypto does not.
    public init(externalRepresentation: Data, type: KeyType, keyClass: KeyClass) throws(KeyCryptoError) {
        let kind = "\(type.familyName) \(keyClass == .privateKey ? "private" : "public")"
        do {
            switch (type, keyClass) {
            case (.ellipticCurve, .publicKey):
                guard let curve = ECCurve(publicRepresentationCount: externalRepresentation.count) else {
                    throw KeyCryptoError.param("no EC public key is \(externalRepresentation.count) bytes long")
                }
                material = .ecPublic(try ECPublicKeyMaterial(x963Representation: externalRepresentation, curve: curve))
            case (.ellipticCurve, .privateKey):
                guard let curve = ECCurve(privateRepresentationCount: externalRepresentation.count) else {
                    throw KeyCryptoError.param("no EC private key is \(externalRepresentation.count) bytes long")
                }
                material = .ecPrivate(try ECPrivateKeyMaterial(x963Representation: externalRepresentation, curve: curve))
            case (.rsa, .publicKey):
                material = .rsaPublic(try RSAPublicKeyMaterial(derRepresentation: externalRepresentation))
            case (.rsa, .privateKey):
                material = .rsaPrivate(try RSAPrivateKeyMaterial(pkcs1Representation: externalRepresentation))
            case (.ed25519, .publicKey):
                guard externalRepresentation.count == 32 else { throw KeyCryptoError.param("an Ed25519 public key is 32 bytes long") }
                material = .edPublic(try Curve25519.Signing.PublicKey(rawRepresentation: externalRepresentation))
            case (.ed25519, .privateKey):
                guard externalRepresentation.count == 32 else { throw KeyCryptoError.param("an Ed25519 private key is 32 bytes long") }
                material = .edPrivate(try Curve25519.Signing.PrivateKey(rawRepresentation: externalRepresentation))
            }
        } catch let error as KeyCryptoError {
            throw .param("\(kind) key creation from data failed: \(error.message)")
        } catch {
            throw .param("\(kind) key creation from data failed")
        }
    }

    /// `SecKeyCopyExternalRepresentation`, byte for byte Apple's: EC `04‖X‖Y` or `04‖X‖Y‖K` (K padded to the
    /// field size), RSA PKCS#1 `RSAPublicKey` or `RSAPrivateKey` DER, Ed25519 the 32-byte point or seed. A
    /// private key's bytes are its secret.
    public func externalRepresentation() -> Data {
        switch material {
        case .ecPrivate(let key): key.x963Representation
        case .rsaPrivate(let key): key.pkcs1Representation
        // swift-crypto's seed `Data` shares the key's own storage: clearing it (as callers of this do) would clear
        // the key, so it is copied.
        case .edPrivate(let key): key.rawRepresentation.withUnsafeBytes { Data($0) }
        case .ecPublic, .rsaPublic, .edPublic: publicKeyBytes
        }
    }
}
