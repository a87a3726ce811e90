import Crypto
import Foundation

/// What Apple's ECIES and RSA-wrap algorithms share about AES-GCM: a 16-byte IV (all zero unless the KDF
/// supplies one) and a 16-byte tag appended to the ciphertext.
enum AppleGCM {
    static let ivByteCount = 16
    static let tagByteCount = 16

    /// 16 zero bytes, a valid GCM nonce (swift-crypto asks for at least 12 bytes), so the `try!` cannot fail.
    static let zeroIV = try! AES.GCM.Nonce(data: Data(count: ivByteCount))

    /// `sealed` (ciphertext ‖ tag) as a sealed box; nil when it is shorter than a tag.
    static func sealedBox(_ sealed: Data, nonce: AES.GCM.Nonce) -> AES.GCM.SealedBox? {
        guard sealed.count >= tagByteCount else { return nil }
        return try? AES.GCM.SealedBox(nonce: nonce, ciphertext: sealed.dropLast(tagByteCount), tag: sealed.suffix(tagByteCount))
    }
}
