import CLibCrypto
import Crypto
import Foundation

/// Opens the AES-GCM parts of a row (`nonce ‖ ciphertext ‖ tag`, see ``ItemCrypto``) on the read path.
///
/// Every find opens two parts per item; swift-crypto's `AES.GCM.open` goes through generic byte views and a
/// sealed box of its own on each (about 4 µs a part here), so 256-bit keys, which are all the format
/// writes, are opened with libcrypto directly. Sealing stays with swift-crypto: the two are the same AEAD.
enum GCMOpening {
    private static let nonceLength = 12
    private static let tagLength = 16

    /// The plaintext of `combined` under `key` and `aad`; nil when it is too short or does not authenticate.
    static func open(_ combined: Data, key: SymmetricKey, aad: [UInt8]) -> Data? {
        guard combined.count >= nonceLength + tagLength else { return nil }
        guard key.bitCount == 256 else {
            guard let box = try? AES.GCM.SealedBox(combined: combined) else { return nil }
            return try? AES.GCM.open(box, using: key, authenticating: aad)
        }
        let length = combined.count - nonceLength - tagLength
        var plaintext = Data(count: length)
        let authentic = combined.withUnsafeBytes { sealed in
            key.withUnsafeBytes { key in
                aad.withUnsafeBufferPointer { aad in
                    plaintext.withUnsafeMutableBytes { plaintext in
                        let bytes = sealed.bindMemory(to: UInt8.self)
                        return coffer_aes256gcm_open(
                            key.bindMemory(to: UInt8.self).baseAddress, bytes.baseAddress,
                            aad.baseAddress, aad.count,
                            bytes.baseAddress! + nonceLength, length, bytes.baseAddress! + nonceLength + length,
                            plaintext.bindMemory(to: UInt8.self).baseAddress)
                    }
                }
            }
        }
        return authentic == 1 ? plaintext : nil
    }
}
