import Crypto
import Foundation
import KeychainModel

extension AsymmetricKey {
    /// The private key in `pkcs8`, a PKCS#8 `PrivateKeyInfo` DER (what PKCS#12 files and `openssl genpkey` hold):
    /// RSA (any modulus up to 8192 bits), EC on P-256, P-384 or P-521, or Ed25519 (RFC 8410). Anything else, or bytes that are no such key,
    /// is `errSecParam`. The intermediate key bytes are cleared.
    public init(pkcs8 der: Data, type: KeyType) throws(KeyCryptoError) {
        do {
            switch type {
            case .rsa:
                material = .rsaPrivate(try RSAPrivateKeyMaterial(pkcs8Representation: der))
            case .ellipticCurve:
                var x963 = try Self.ecX963(pkcs8: der)
                defer { x963.zeroize() }
                guard let curve = ECCurve(privateRepresentationCount: x963.count) else { throw KeyCryptoError.param("unknown curve") }
                material = .ecPrivate(try ECPrivateKeyMaterial(x963Representation: x963, curve: curve))
            case .ed25519:
                var seed = try Self.ed25519Seed(pkcs8: der)
                defer { seed.zeroize() }
                material = .edPrivate(try Curve25519.Signing.PrivateKey(rawRepresentation: seed))
            }
        } catch {
            throw .param("\(type.familyName) private key creation from PKCS#8 failed")
        }
    }

    /// The 32-byte seed of an Ed25519 `PrivateKeyInfo` (RFC 8410 §7): the fixed 16-byte prefix OpenSSL writes
    /// (version 0, `id-Ed25519`, no attributes or public key), then the seed.
    private static func ed25519Seed(pkcs8 der: Data) throws -> Data {
        let prefix: [UInt8] = [0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]
        guard der.count == prefix.count + 32, der.prefix(prefix.count).elementsEqual(prefix) else {
            throw KeyCryptoError.param("not an Ed25519 PrivateKeyInfo")
        }
        return Data(der.suffix(32))
    }

    /// `04‖X‖Y‖K` of the EC key in `pkcs8`, trying each curve swift-crypto has.
    private static func ecX963(pkcs8 der: Data) throws -> Data {
        if let key = try? P256.Signing.PrivateKey(derRepresentation: der) { return key.x963Representation }
        if let key = try? P384.Signing.PrivateKey(derRepresentation: der) { return key.x963Representation }
        return try P521.Signing.PrivateKey(derRepresentation: der).x963Representation
    }
}
