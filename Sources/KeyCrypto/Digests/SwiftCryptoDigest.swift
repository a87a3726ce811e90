import Crypto
import Foundation

/// swift-crypto's own digest values made from bytes the caller hashed, for RSA.
///
/// swift-crypto's RSA signs only its own digest types (it picks the DigestInfo by the type), and they have
/// no public initializer. Each is a plain struct holding the digest bytes (padded to whole words), so one
/// is rebuilt by loading those bytes as the type, then read back: if the bytes do not come back unchanged
/// (another swift-crypto layout), the digest is refused and the digest-form RSA algorithms report
/// themselves unsupported (``isAvailable``) instead of signing something else.
enum SwiftCryptoDigest {
    /// Whether digests can be rebuilt with this swift-crypto (checked once against real digests).
    static let isAvailable: Bool = {
        let probe = Data("coffer".utf8)
        return [DigestAlgorithm.sha1, .sha256, .sha384, .sha512].allSatisfy { algorithm in
            let bytes = algorithm.hash(probe)
            return digest(algorithm, of: bytes).map { Data($0) == bytes } ?? false
        }
    }()

    /// swift-crypto's digest value holding `bytes` (a digest of `algorithm`); nil for SHA-224, which
    /// swift-crypto's RSA does not know, and when `bytes` is not a digest of that length.
    static func digest(_ algorithm: DigestAlgorithm, of bytes: Data) -> (any Digest)? {
        switch algorithm {
        case .sha1: rebuild(Insecure.SHA1Digest.self, from: bytes)
        case .sha224: nil
        case .sha256: rebuild(SHA256Digest.self, from: bytes)
        case .sha384: rebuild(SHA384Digest.self, from: bytes)
        case .sha512: rebuild(SHA512Digest.self, from: bytes)
        }
    }

    /// swift-crypto's digest of `message` (computed, so no rebuilding); nil for SHA-224.
    static func digest(_ algorithm: DigestAlgorithm, hashing message: Data) -> (any Digest)? {
        switch algorithm {
        case .sha1: Insecure.SHA1.hash(data: message)
        case .sha224: nil
        case .sha256: SHA256.hash(data: message)
        case .sha384: SHA384.hash(data: message)
        case .sha512: SHA512.hash(data: message)
        }
    }

    private static func rebuild<D: Digest>(_ type: D.Type, from bytes: Data) -> D? {
        guard bytes.count == D.byteCount, _isPOD(D.self), MemoryLayout<D>.size >= D.byteCount else { return nil }
        let digest = withUnsafeTemporaryAllocation(
            byteCount: MemoryLayout<D>.size, alignment: MemoryLayout<D>.alignment
        ) { storage -> D in
            storage.initializeMemory(as: UInt8.self, repeating: 0)
            storage.copyBytes(from: bytes)
            return storage.load(as: D.self)
        }
        guard digest.withUnsafeBytes({ $0.elementsEqual(bytes) }) else { return nil }
        return digest
    }
}
