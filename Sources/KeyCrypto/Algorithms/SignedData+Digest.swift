import Crypto
import Foundation

extension SignedData {
    /// The hash the algorithm names; nil for ``anyDigest``.
    var digestAlgorithm: DigestAlgorithm? {
        switch self {
        case .anyDigest: nil
        case .digest(let algorithm), .message(let algorithm): algorithm
        }
    }

    /// The digest an ECDSA signature covers: the message's digest, or the input itself when it is a digest
    /// of the right length. Nil for a digest of the wrong length, which Apple refuses with `errSecParam`
    /// ("bad digest size") when signing and when verifying.
    func ecdsaDigest(of input: Data) -> PrehashedDigest? {
        switch self {
        case .anyDigest: PrehashedDigest(input)
        case .digest(let algorithm): input.count == algorithm.byteCount ? PrehashedDigest(input) : nil
        case .message(let algorithm): PrehashedDigest(algorithm.hash(input))
        }
    }

    /// The digest an RSA signature covers, as swift-crypto's digest value. Nil for a digest of the wrong
    /// length, and for hashes swift-crypto's RSA does not know.
    func rsaDigest(of input: Data) -> (any Digest)? {
        switch self {
        case .anyDigest: nil
        case .digest(let algorithm): SwiftCryptoDigest.digest(algorithm, of: input)
        case .message(let algorithm): SwiftCryptoDigest.digest(algorithm, hashing: input)
        }
    }
}
