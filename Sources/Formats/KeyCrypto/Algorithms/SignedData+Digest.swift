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

    /// The digest an RSA signature covers and its hash: the message's digest, or the input itself when it is
    /// a digest of the right length. Nil for a digest of the wrong length (Apple's PKCS#1 v1.5 would sign a
    /// malformed DigestInfo; Coffer refuses it with `errSecParam`).
    func rsaDigest(of input: Data) -> (digest: Data, algorithm: DigestAlgorithm)? {
        switch self {
        case .anyDigest: nil
        case .digest(let algorithm): input.count == algorithm.byteCount ? (input, algorithm) : nil
        case .message(let algorithm): (algorithm.hash(input), algorithm)
        }
    }
}
