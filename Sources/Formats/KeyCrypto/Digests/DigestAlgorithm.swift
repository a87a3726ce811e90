import Crypto
import Foundation
import KeychainModel

/// A hash an algorithm names: for message signatures, for the X9.62/RFC 4754 digest length checks, for
/// OAEP and for the X9.63 KDF.
enum DigestAlgorithm: Sendable, Hashable {
    case sha1, sha224, sha256, sha384, sha512

    /// The digest's length in bytes.
    var byteCount: Int {
        switch self {
        case .sha1: 20
        case .sha224: 28
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The digest of `message`.
    func hash(_ message: Data) -> Data {
        switch self {
        case .sha1: Data(Insecure.SHA1.hash(data: message))
        case .sha224: Data(SHA224.hash(data: message))
        case .sha256: Data(SHA256.hash(data: message))
        case .sha384: Data(SHA384.hash(data: message))
        case .sha512: Data(SHA512.hash(data: message))
        }
    }

    /// The ANSI X9.63 KDF with this hash over `secret`: `byteCount` bytes of
    /// Hash(Z ‖ counter ‖ sharedInfo) blocks.
    func x963DerivedKey(from secret: SharedSecret, sharedInfo: Data, byteCount: Int) -> SymmetricKey {
        switch self {
        case .sha1: secret.x963DerivedSymmetricKey(using: Insecure.SHA1.self, sharedInfo: sharedInfo, outputByteCount: byteCount)
        case .sha224: secret.x963DerivedSymmetricKey(using: SHA224.self, sharedInfo: sharedInfo, outputByteCount: byteCount)
        case .sha256: secret.x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: sharedInfo, outputByteCount: byteCount)
        case .sha384: secret.x963DerivedSymmetricKey(using: SHA384.self, sharedInfo: sharedInfo, outputByteCount: byteCount)
        case .sha512: secret.x963DerivedSymmetricKey(using: SHA512.self, sharedInfo: sharedInfo, outputByteCount: byteCount)
        }
    }

    /// The same KDF over a secret's raw bytes (a held key's ECDH, which swift-crypto's `SharedSecret` cannot carry).
    func x963DerivedKey(fromBytes secret: UnsafeRawBufferPointer, sharedInfo: Data, byteCount: Int) -> SymmetricKey {
        var output = [UInt8]()
        output.reserveCapacity(byteCount + self.byteCount)
        var counter: UInt32 = 1
        while output.count < byteCount {
            var block = Data(secret)
            withUnsafeBytes(of: counter.bigEndian) { block.append(contentsOf: $0) }
            block.append(sharedInfo)
            output.append(contentsOf: hash(block))
            block.resetBytes(in: 0..<block.count)
            counter += 1
        }
        defer { output.zeroize() }
        return SymmetricKey(data: output.prefix(byteCount))
    }
}
