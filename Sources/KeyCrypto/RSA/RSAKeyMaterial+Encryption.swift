import CryptoExtras
import Foundation

extension _RSA.Encryption.Padding {
    /// swift-crypto's OAEP padding with `digest` for the label hash and MGF1; nil for the hashes it lacks.
    static func oaep(_ digest: DigestAlgorithm) -> _RSA.Encryption.Padding? {
        switch digest {
        case .sha1: .PKCS1_OAEP
        case .sha256: .PKCS1_OAEP_SHA256
        case .sha224, .sha384, .sha512: nil
        }
    }
}

extension RSAPublicKeyMaterial {
    /// `plaintext` encrypted with `padding`: a block as long as the modulus. Input longer than the padding
    /// leaves room for (block size - 11 for PKCS#1 v1.5, - 2 × hash length - 2 for OAEP) is `errSecParam`.
    func encrypt(_ plaintext: some DataProtocol, padding: _RSA.Encryption.Padding) throws(KeyCryptoError) -> Data {
        let capacity = encryption.key.maximumEncryptSize(with: padding)
        guard plaintext.count <= capacity else {
            throw .param("RSAencrypt wrong input size: \(plaintext.count) bytes, at most \(capacity) fit")
        }
        do {
            return try encryption.key.encrypt(plaintext, padding: padding)
        } catch {
            throw .param("RSAencrypt failed")
        }
    }
}

extension RSAPrivateKeyMaterial {
    /// The plaintext of `ciphertext`, encrypted with `padding`. A ciphertext that does not decrypt or whose
    /// padding is wrong is `errSecParam`.
    func decrypt(_ ciphertext: Data, padding: _RSA.Encryption.Padding) throws(KeyCryptoError) -> Data {
        let block = try publicKey.block(ciphertext)
        do {
            return try encryption.key.decrypt(block, padding: padding)
        } catch {
            throw .param("RSAdecrypt wrong input")
        }
    }
}
