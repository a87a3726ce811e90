import Crypto
import Foundation
import KeychainModel

/// Apple's `kSecKeyAlgorithmRSAEncryptionOAEP…AESGCM`, as SecKeyAdaptors.m builds it.
///
/// Wire format: a random AES key wrapped with RSA OAEP (a block as long as the modulus) ‖ the AES-GCM
/// ciphertext ‖ the 16-byte tag. The AES key has 16 bytes for moduli under 4096 bits, 32 from 4096; the IV is
/// 16 zero bytes (each key seals one message); the additional data is the public key's PKCS#1 DER.
enum RSAWrappedAESGCM {
    /// The session key's length for a modulus of `sizeInBits`.
    static func sessionKeyByteCount(forModulusBits sizeInBits: Int) -> Int { sizeInBits >= 4096 ? 32 : 16 }

    /// `plaintext` sealed under a new session key wrapped for `recipient`.
    static func encrypt(
        _ plaintext: Data, to recipient: RSAPublicKeyMaterial, padding: LibCryptoRSAKey.Padding
    ) throws(KeyCryptoError) -> Data {
        let sessionKey = SymmetricKey(
            size: SymmetricKeySize(bitCount: 8 * sessionKeyByteCount(forModulusBits: recipient.sizeInBits)))
        var sessionBytes = sessionKey.withUnsafeBytes { Data($0) }
        defer { sessionBytes.zeroize() }
        let wrapped = try recipient.encrypt(sessionBytes, padding: padding)
        do {
            let sealed = try AES.GCM.seal(
                plaintext, using: sessionKey, nonce: AppleGCM.zeroIV, authenticating: recipient.pkcs1Representation)
            return wrapped + sealed.ciphertext + sealed.tag
        } catch {
            throw .param("RSAWRAP: Failed to aes-gcm encrypt data")
        }
    }

    /// The plaintext of `packet`, sealed for `recipient`. A packet shorter than a wrapped key and a tag, a
    /// session key that does not unwrap to the expected length, or a ciphertext that does not authenticate is
    /// `errSecParam`.
    static func decrypt(
        _ packet: Data, with recipient: RSAPrivateKeyMaterial, padding: LibCryptoRSAKey.Padding
    ) throws(KeyCryptoError) -> Data {
        let publicKey = recipient.publicKey
        guard packet.count >= publicKey.blockSize + AppleGCM.tagByteCount else { throw .param("RSA-WRAP too short input data") }
        var sessionKeyBytes = try recipient.decrypt(Data(packet.prefix(publicKey.blockSize)), padding: padding)
        defer { sessionKeyBytes.zeroize() }
        guard sessionKeyBytes.count == sessionKeyByteCount(forModulusBits: publicKey.sizeInBits) else {
            throw .param("RSA-WRAP bad ciphertext, unexpected session key size")
        }
        guard let box = AppleGCM.sealedBox(packet.dropFirst(publicKey.blockSize), nonce: AppleGCM.zeroIV) else {
            throw .param("RSA-WRAP too short input data")
        }
        do {
            return try AES.GCM.open(
                box, using: SymmetricKey(data: sessionKeyBytes), authenticating: publicKey.pkcs1Representation)
        } catch {
            throw .param("RSA-WRAP: Failed to aes-gcm decrypt data")
        }
    }
}
