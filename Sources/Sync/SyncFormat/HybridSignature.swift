import Crypto
import Foundation

/// A signature that holds while either of its halves does: ECDSA over P-256 and ML-DSA-65 (FIPS 204) over the same
/// message, both required to verify, as Apple pairs a classical and a post-quantum algorithm. Layout: the P-256
/// signature (64 bytes, raw r‖s), then the ML-DSA-65 signature.
public enum HybridSignature {
    /// An ML-DSA-65 signature's size.
    static let mldsaSize = 3309
    /// The whole signature's size.
    public static let size = 64 + mldsaSize

    /// Signs `message` in `context` (a label that keeps signatures of one kind of message from being taken for
    /// another's) with both keys.
    static func sign(_ message: Data, context: String, p256: P256.Signing.PrivateKey, mldsa: MLDSA65.PrivateKey) throws -> Data {
        let framed = frame(message, context: context)
        var signature = try p256.signature(for: framed).rawRepresentation
        signature.append(try mldsa.signature(for: framed, context: Data(context.utf8)))
        return signature
    }

    /// Whether `signature` is both keys' signature of `message` in `context`.
    static func isValid(_ signature: Data, of message: Data, context: String, p256: P256.Signing.PublicKey, mldsa: MLDSA65.PublicKey) -> Bool {
        guard signature.count == size, let classical = try? P256.Signing.ECDSASignature(rawRepresentation: signature.prefix(64)) else {
            return false
        }
        let framed = frame(message, context: context)
        return p256.isValidSignature(classical, for: framed) && mldsa.isValidSignature(signature.suffix(mldsaSize), for: framed, context: Data(context.utf8))
    }

    /// The message as both algorithms sign it: the context's length and bytes first.
    private static func frame(_ message: Data, context: String) -> Data {
        var framed = Data([UInt8(context.utf8.count)])
        framed.append(Data(context.utf8))
        framed.append(message)
        return framed
    }
}
