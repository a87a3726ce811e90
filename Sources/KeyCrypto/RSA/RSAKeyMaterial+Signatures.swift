import Crypto
import CryptoExtras
import Foundation

extension RSAPrivateKeyMaterial {
    /// An RSA signature over `digest`, as long as the modulus.
    func signature(for digest: some Digest, padding: RSASignaturePadding) throws -> Data {
        try signing.signature(for: digest, padding: padding.swiftCrypto).rawRepresentation
    }
}

extension RSAPublicKeyMaterial {
    /// Whether `signature` (a block as long as the modulus, see ``block(_:)``) signs `digest`.
    func isValidSignature(_ signature: Data, for digest: some Digest, padding: RSASignaturePadding) -> Bool {
        signing.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature), for: digest, padding: padding.swiftCrypto)
    }
}
