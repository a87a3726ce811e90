import Crypto
import CryptoExtras
import Foundation

extension AsymmetricKey {
    /// The private key in `pkcs8`, a PKCS#8 `PrivateKeyInfo` DER (what PKCS#12 files and `openssl genpkey` hold):
    /// RSA (1024 to 8192 bits), or EC on P-256, P-384 or P-521. Anything else, or bytes that are no such key,
    /// is `errSecParam`. The intermediate key bytes are cleared.
    public init(pkcs8 der: Data, type: KeyType) throws(KeyCryptoError) {
        do {
            switch type {
            case .rsa:
                var pkcs1 = try _RSA.Signing.PrivateKey(unsafeDERRepresentation: der).derRepresentation
                defer { pkcs1.zeroize() }
                material = .rsaPrivate(try RSAPrivateKeyMaterial(pkcs1Representation: pkcs1))
            case .ellipticCurve:
                var x963 = try Self.ecX963(pkcs8: der)
                defer { x963.zeroize() }
                guard let curve = ECCurve(privateRepresentationCount: x963.count) else { throw KeyCryptoError.param("unknown curve") }
                material = .ecPrivate(try ECPrivateKeyMaterial(x963Representation: x963, curve: curve))
            }
        } catch {
            throw .param("\(type == .rsa ? "RSA" : "EC") private key creation from PKCS#8 failed")
        }
    }

    /// `04‖X‖Y‖K` of the EC key in `pkcs8`, trying each curve swift-crypto has.
    private static func ecX963(pkcs8 der: Data) throws -> Data {
        if let key = try? P256.Signing.PrivateKey(derRepresentation: der) { return key.x963Representation }
        if let key = try? P384.Signing.PrivateKey(derRepresentation: der) { return key.x963Representation }
        return try P521.Signing.PrivateKey(derRepresentation: der).x963Representation
    }
}
