import CCofferSystem
import CLibCrypto
import Crypto

/// Seals records with AES-256-GCM through libcrypto, in a cipher context that keeps the key's schedule from one
/// record to the next: each seal sets a nonce and runs, where a new context per record cost more than the rest of
/// the record. The records are standard AES-GCM, opened by ``RecordFrame/open(keys:after:)``. Not for two threads
/// at once: the journal seals under its lock.
final class RecordSealer {
    private let sealer: OpaquePointer

    /// A sealer for `key`; nil when libcrypto cannot make the context.
    init?(key: SymmetricKey) {
        guard let made = key.withUnsafeBytes({ coffer_aes_gcm_sealer_new($0.bindMemory(to: UInt8.self).baseAddress) }) else { return nil }
        sealer = made
    }

    deinit { coffer_aes_gcm_sealer_free(sealer) }

    /// `nonce ‖ ciphertext ‖ tag` of `plaintext`, authenticating `additional`; nil when libcrypto fails.
    func seal(_ plaintext: [UInt8], nonce: [UInt8], additional: [UInt8]) -> [UInt8]? {
        precondition(nonce.count == 12)
        var sealed = nonce + [UInt8](repeating: 0, count: plaintext.count + 16)
        let done = sealed.withUnsafeMutableBufferPointer { output in
            coffer_aes_gcm_seal(sealer, nonce, additional, additional.count, plaintext, plaintext.count, output.baseAddress! + 12)
        }
        return done == 1 ? sealed : nil
    }

    /// `count` bytes from the kernel's generator (nonces, head secrets).
    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBytes { coffer_random_bytes($0.baseAddress, $0.count) }
        precondition(status == 0, "the kernel's random generator failed")
        return bytes
    }
}
