import Crypto
import Foundation
import KeychainModel

/// RFC 3394 AES key wrap of class keys and the index key, with its failures as ``KeystoreError/wrappedKeyCorrupt``.
enum KeyWrap {
    static func wrap(_ key: SymmetricKey, with wrappingKey: SymmetricKey) throws(KeystoreError) -> Data {
        do { return try AES.KeyWrap.wrap(key, using: wrappingKey) } catch { throw .wrappedKeyCorrupt }
    }

    static func unwrap(_ wrapped: Data, with wrappingKey: SymmetricKey) throws(KeystoreError) -> SymmetricKey {
        do { return try AES.KeyWrap.unwrap(wrapped, using: wrappingKey) } catch { throw .wrappedKeyCorrupt }
    }
}
