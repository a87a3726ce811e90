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

    /// The frame of record `sequence` (``RecordFrame/bytes``: length, sequence, then `nonce ‖ ciphertext ‖ tag` of
    /// `plaintext`, authenticating `additional`), sealed in place; nil when libcrypto fails.
    func sealFrame(_ plaintext: [UInt8], nonce: [UInt8], additional: [UInt8], sequence: UInt64) -> [UInt8]? {
        precondition(nonce.count == 12)
        let length = 8 + 12 + plaintext.count + 16
        var sealed = false
        let frame = [UInt8](unsafeUninitializedCapacity: 4 + length) { buffer, count in
            buffer.initialize(repeating: 0)
            for index in 0..<4 { buffer[index] = UInt8(truncatingIfNeeded: UInt32(length) >> (24 - 8 * index)) }
            for index in 0..<8 { buffer[4 + index] = UInt8(truncatingIfNeeded: sequence >> (56 - 8 * UInt64(index))) }
            for index in 0..<12 { buffer[12 + index] = nonce[index] }
            sealed = coffer_aes_gcm_seal(sealer, nonce, additional, additional.count, plaintext, plaintext.count, buffer.baseAddress! + 24) == 1
            count = 4 + length
        }
        return sealed ? frame : nil
    }

    /// `count` bytes from the kernel's generator (nonces, head secrets).
    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBytes { coffer_random_bytes($0.baseAddress, $0.count) }
        precondition(status == 0, "the kernel's random generator failed")
        return bytes
    }
}
