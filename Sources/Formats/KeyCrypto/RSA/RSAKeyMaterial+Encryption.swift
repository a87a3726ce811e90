import Foundation
import KeychainModel

extension RSAPublicKeyMaterial {
    /// Whether the modulus holds `padding` at all, as Apple requires before it calls the algorithm supported:
    /// 11 bytes for PKCS#1 v1.5, 2 × hash length + 2 for OAEP.
    func fits(_ padding: LibCryptoRSAKey.Padding) -> Bool {
        switch padding {
        case .none: true
        case .pkcs1, .pss: blockSize >= 11
        case .oaep(let digest): blockSize >= 2 * digest.byteCount + 2
        }
    }

    /// The longest plaintext `padding` leaves room for in one block.
    private func capacity(_ padding: LibCryptoRSAKey.Padding) -> Int {
        switch padding {
        case .none: blockSize
        case .pkcs1, .pss: blockSize - 11
        case .oaep(let digest): blockSize - 2 * digest.byteCount - 2
        }
    }

    /// `plaintext` encrypted with `padding`: a block as long as the modulus. Input longer than the padding
    /// leaves room for is `errSecParam`; so is a raw block longer than the modulus or not below it.
    func encrypt(_ plaintext: Data, padding: LibCryptoRSAKey.Padding) throws(KeyCryptoError) -> Data {
        let input: Data
        if case .none = padding {
            input = try block(plaintext)
        } else {
            let capacity = capacity(padding)
            guard plaintext.count <= capacity else {
                throw .param("RSAencrypt wrong input size: \(plaintext.count) bytes, at most \(capacity) fit")
            }
            input = plaintext
        }
        do {
            return try key.encrypt(input, padding: padding)
        } catch {
            throw .param("RSAencrypt failed")
        }
    }
}

extension RSAPrivateKeyMaterial {
    /// The plaintext of `ciphertext`, encrypted with `padding` (raw: the block, as long as the modulus). A
    /// ciphertext that does not decrypt or whose padding is wrong is `errSecParam`. The caller clears the result
    /// when it holds a secret.
    func decrypt(_ ciphertext: Data, padding: LibCryptoRSAKey.Padding) throws(KeyCryptoError) -> Data {
        let block = try publicKey.block(ciphertext)
        do {
            return try key.decrypt(block, padding: padding)
        } catch {
            throw .param("RSAdecrypt wrong input")
        }
    }
}
