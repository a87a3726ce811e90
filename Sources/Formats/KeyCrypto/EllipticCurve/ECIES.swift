import Crypto
import Foundation

/// Apple's ECIES (`kSecKeyAlgorithmECIESEncryption…`), as SecKeyAdaptors.m builds it.
///
/// Wire format: the ephemeral public key (`04‖X‖Y`) ‖ the AES-GCM ciphertext ‖ the 16-byte tag. The key
/// comes from the X9.63 KDF over the ECDH secret of the ephemeral key and the recipient's key, with the
/// ephemeral public key as shared info; it is 16 bytes on curves up to 256 bits, 32 above. The IV has 16
/// bytes: all zero, or (variable-IV variants) the 16 KDF bytes after the key. No additional data.
enum ECIES {
    /// `plaintext` encrypted to `recipient` with a new ephemeral key.
    static func encrypt(
        _ plaintext: Data, to recipient: ECPublicKeyMaterial, digest: DigestAlgorithm, variableIV: Bool
    ) throws(KeyCryptoError) -> Data {
        let ephemeral = ECPrivateKeyMaterial(generatingOn: recipient.curve)
        let ephemeralPublicKey = ephemeral.publicKey.x963Representation
        let secret = try ephemeral.sharedSecret(with: recipient)
        let (key, nonce) = sessionKey(
            from: secret, ephemeralPublicKey: ephemeralPublicKey, curve: recipient.curve, digest: digest,
            variableIV: variableIV)
        do {
            let sealed = try AES.GCM.seal(plaintext, using: key, nonce: nonce)
            return ephemeralPublicKey + sealed.ciphertext + sealed.tag
        } catch {
            throw .param("ECIES: Failed to aes-gcm encrypt data")
        }
    }

    /// The plaintext of `packet`, encrypted to `recipient`'s public key. A packet too short, an ephemeral
    /// key not on the curve, or a ciphertext that does not authenticate is `errSecParam`.
    static func decrypt(
        _ packet: Data, with recipient: ECPrivateKeyMaterial, digest: DigestAlgorithm, variableIV: Bool
    ) throws(KeyCryptoError) -> Data {
        let curve = recipient.curve
        guard packet.count >= curve.publicRepresentationCount else {
            throw .param("too small input packet for ECIES decrypt")
        }
        let ephemeralPublicKey = Data(packet.prefix(curve.publicRepresentationCount))
        let ephemeral: ECPublicKeyMaterial
        do {
            ephemeral = try ECPublicKeyMaterial(x963Representation: ephemeralPublicKey, curve: curve)
        } catch {
            throw .param("ECpriv sharedsecret: bad public key")
        }
        let secret = try recipient.sharedSecret(with: ephemeral)
        let (key, nonce) = sessionKey(
            from: secret, ephemeralPublicKey: ephemeralPublicKey, curve: curve, digest: digest, variableIV: variableIV)
        guard let box = AppleGCM.sealedBox(packet.dropFirst(curve.publicRepresentationCount), nonce: nonce) else {
            throw .param("ECIES: Input data too short")
        }
        do {
            return try AES.GCM.open(box, using: key)
        } catch {
            throw .param("ECIES: Failed to aes-gcm decrypt data")
        }
    }

    /// The AES key and IV for a message: KDF output of the key's length (+ 16 for the IV when variable).
    private static func sessionKey(
        from secret: AgreedSecret, ephemeralPublicKey: Data, curve: ECCurve, digest: DigestAlgorithm, variableIV: Bool
    ) -> (SymmetricKey, AES.GCM.Nonce) {
        // Apple sizes the key from the public key's coordinate length: 128-bit AES up to 256-bit coordinates.
        let keyByteCount = curve.byteCount * 8 > 256 ? 32 : 16
        guard variableIV else {
            let key = secret.x963DerivedKey(digest, sharedInfo: ephemeralPublicKey, byteCount: keyByteCount)
            return (key, AppleGCM.zeroIV)
        }
        let derived = secret.x963DerivedKey(digest, sharedInfo: ephemeralPublicKey, byteCount: keyByteCount + AppleGCM.ivByteCount)
        return derived.withUnsafeBytes { bytes in
            let key = SymmetricKey(data: UnsafeRawBufferPointer(rebasing: bytes[..<keyByteCount]))
            // 16 bytes always make a valid GCM nonce (swift-crypto asks for at least 12): `try!` cannot fail.
            let iv = try! AES.GCM.Nonce(data: UnsafeRawBufferPointer(rebasing: bytes[keyByteCount...]))
            return (key, iv)
        }
    }
}
