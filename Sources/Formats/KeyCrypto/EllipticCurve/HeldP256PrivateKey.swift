import Foundation
import KeychainModel

/// A P-256 private key held by something else (a TPM): its public key, and the two things it does with its
/// private half, which never enters this process.
///
/// `AsymmetricKey(held:)` makes it a key like any other: Apple's algorithms, input checks, encodings and statuses
/// are the same as for a software P-256 key, and only the scalar multiplications are asked of the holder.
public struct HeldP256PrivateKey: Sendable {
    /// Why the holder could not do what was asked.
    public struct Failure: Error, Sendable {
        /// A sentence for people.
        public let reason: String

        /// A failure.
        public init(reason: String) { self.reason = reason }
    }

    /// The public key, X9.63 `04‖X‖Y`.
    public let publicKey: Data
    let sign: @Sendable (Data) throws(Failure) -> Data
    let agree: @Sendable (Data) throws(Failure) -> SecretBytes

    /// A held key: `sign` makes an ECDSA signature, raw r‖s (64 bytes), of a 32-byte value (the digest as X9.62
    /// reads it: its leftmost 256 bits, or the digest zero-padded on the left when shorter); `agree` returns the x
    /// coordinate of ECDH with a peer's X9.63 public key.
    public init(
        publicKey: Data, sign: @escaping @Sendable (Data) throws(Failure) -> Data,
        agree: @escaping @Sendable (Data) throws(Failure) -> SecretBytes
    ) {
        self.publicKey = publicKey
        self.sign = sign
        self.agree = agree
    }

    /// X9.62's integer of `digest` for a 256-bit order, as 32 big-endian bytes.
    static func signedValue(of digest: Data) -> Data {
        digest.count >= 32 ? Data(digest.prefix(32)) : Data(repeating: 0, count: 32 - digest.count) + digest
    }
}
