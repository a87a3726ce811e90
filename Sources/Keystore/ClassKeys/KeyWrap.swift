import CCofferSystem
import CLibCrypto
import Crypto
import Foundation
import KeychainModel

/// RFC 3394 AES key wrap of class keys and the index key, with its failures as ``KeystoreError/wrappedKeyCorrupt``.
///
/// Every find unwraps its item's key: under a 256-bit key (all the keystore makes) that goes to libcrypto
/// directly, as swift-crypto's `AES.KeyWrap` costs several times the cipher's own work per call. Wrapping
/// stays with swift-crypto: both are RFC 3394 with its default initial value.
enum KeyWrap {
    static func wrap(_ key: SymmetricKey, with wrappingKey: SymmetricKey) throws(KeystoreError) -> Data {
        do { return try AES.KeyWrap.wrap(key, using: wrappingKey) } catch { throw .wrappedKeyCorrupt }
    }

    static func unwrap(_ wrapped: Data, with wrappingKey: SymmetricKey) throws(KeystoreError) -> SymmetricKey {
        guard wrappingKey.bitCount == 256 else {
            do { return try AES.KeyWrap.unwrap(wrapped, using: wrappingKey) } catch { throw .wrappedKeyCorrupt }
        }
        guard wrapped.count >= 24, wrapped.count % 8 == 0 else { throw .wrappedKeyCorrupt }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: wrapped.count, alignment: 16)
        defer {
            coffer_secure_zero(buffer.baseAddress, buffer.count)
            buffer.deallocate()
        }
        let unwrapped = wrapped.withUnsafeBytes { wrapped in
            wrappingKey.withUnsafeBytes { kek in
                coffer_aes256_key_unwrap(
                    kek.bindMemory(to: UInt8.self).baseAddress, wrapped.bindMemory(to: UInt8.self).baseAddress,
                    wrapped.count, buffer.bindMemory(to: UInt8.self).baseAddress)
            }
        }
        guard unwrapped == 1 else { throw .wrappedKeyCorrupt }
        return SymmetricKey(data: UnsafeRawBufferPointer(rebasing: buffer[..<(wrapped.count - 8)]))
    }
}
