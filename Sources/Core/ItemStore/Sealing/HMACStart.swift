import CLibCrypto
import Crypto

/// HMAC-SHA256 under one key with a fixed prefix already absorbed: libcrypto's hash states after the key's
/// pads and the prefix, prepared once. Each MAC starts from copies of them, so the key schedule and the
/// prefix are not hashed again and nothing is allocated per MAC.
///
/// The blind indexes of every search and the row tag of every row read are such MACs; swift-crypto's
/// `HMAC` hashes the outer pad again and allocates hash contexts on each one, several times SHA-256's own
/// work for messages this short.
final class HMACStart: @unchecked Sendable {
    // @unchecked: the C state is written once, in init, and only read afterwards.
    private let start: OpaquePointer

    /// The start of HMAC-SHA256(`key`, `prefix` ‖ …).
    init(key: SymmetricKey, prefix: [UInt8]) {
        let made = key.withUnsafeBytes { key in
            prefix.withUnsafeBufferPointer { prefix in
                coffer_hmac_sha256_start_new(
                    key.bindMemory(to: UInt8.self).baseAddress, key.count, prefix.baseAddress, prefix.count)
            }
        }
        guard let made else { fatalError("out of memory preparing an HMAC key") }
        start = made
    }

    deinit { coffer_hmac_sha256_start_free(start) }

    /// HMAC-SHA256(key, prefix ‖ `message`), handed to `body` as its 32 bytes.
    func withMAC<Result>(of message: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: SHA256.byteCount) { mac in
            coffer_hmac_sha256(start, message.bindMemory(to: UInt8.self).baseAddress, message.count, mac.baseAddress!)
            return body(UnsafeRawBufferPointer(mac))
        }
    }
}
