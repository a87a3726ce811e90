import Crypto
import Foundation

/// Digest bytes a caller computed, handed to swift-crypto's ECDSA as they are.
///
/// swift-crypto's ECDSA signs and verifies exactly the bytes a `Digest` presents (truncated to the curve's
/// order, as X9.62 says), so any length works, as Apple's `…DigestX962` algorithms accept. The static
/// ``byteCount`` means nothing here: the length is the instance's.
struct PrehashedDigest: Digest {
    static var byteCount: Int { 0 }

    private let bytes: [UInt8]

    init(_ bytes: Data) { self.bytes = [UInt8](bytes) }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes(body)
    }

    static func == (lhs: PrehashedDigest, rhs: PrehashedDigest) -> Bool { lhs.bytes == rhs.bytes }

    func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}
