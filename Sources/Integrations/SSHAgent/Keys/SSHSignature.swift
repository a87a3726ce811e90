import Foundation
import KeyCrypto

/// The signature blob of a sign response (RFC 4253 §6.6, RFC 5656 §3.1.2, RFC 8332 §3): the algorithm's name,
/// then the signature in that algorithm's form.
public enum SSHSignature {
    /// The algorithm a request signs with, and what the keychain is asked for.
    public struct Scheme: Equatable, Sendable {
        /// The name in the signature blob (`ecdsa-sha2-nistp256`, `rsa-sha2-512`).
        public let name: String
        /// The keychain's algorithm: ECDSA r‖s (RFC 4754) over the curve's hash, RSA PKCS#1 v1.5, or Ed25519.
        public let algorithm: KeyAlgorithm
    }

    /// The scheme for `key` and a request's `flags`: Ed25519 (RFC 8709 §6); ECDSA with the curve's hash (SHA-256,
    /// SHA-384, SHA-512); RSA with SHA-512 or SHA-256 when the flags ask for it. A plain `ssh-rsa` (SHA-1) signature is refused (nil):
    /// OpenSSH's own tools ask for SHA-2 on every RSA key.
    public static func scheme(for key: AsymmetricKey, flags: UInt32) -> Scheme? {
        switch key.type {
        case .ed25519:
            return Scheme(name: "ssh-ed25519", algorithm: .edDSASignatureMessageCurve25519SHA512)
        case .ellipticCurve:
            let name = "ecdsa-sha2-nistp\(key.sizeInBits)"
            switch key.sizeInBits {
            case 256: return Scheme(name: name, algorithm: .ecdsaSignatureMessageRFC4754SHA256)
            case 384: return Scheme(name: name, algorithm: .ecdsaSignatureMessageRFC4754SHA384)
            case 521: return Scheme(name: name, algorithm: .ecdsaSignatureMessageRFC4754SHA512)
            default: return nil
            }
        case .rsa:
            if flags & AgentMessageNumber.rsaSHA512Flag != 0 {
                return Scheme(name: "rsa-sha2-512", algorithm: .rsaSignatureMessagePKCS1v15SHA512)
            }
            if flags & AgentMessageNumber.rsaSHA256Flag != 0 {
                return Scheme(name: "rsa-sha2-256", algorithm: .rsaSignatureMessagePKCS1v15SHA256)
            }
            return nil
        }
    }

    /// The blob for `signature`, as the keychain made it under `scheme`: for ECDSA, r‖s (each half the field
    /// size) becomes `string(mpint r, mpint s)`; an RSA or Ed25519 signature is kept as it is.
    public static func blob(scheme: Scheme, signature: Data) throws(SSHWireError) -> Data {
        var writer = SSHWireWriter()
        writer.text(scheme.name)
        if scheme.name.hasPrefix("ecdsa-") {
            guard signature.count % 2 == 0, !signature.isEmpty else { throw SSHWireError("an ECDSA signature of odd length") }
            let half = signature.count / 2
            var inner = SSHWireWriter()
            inner.mpint(signature.prefix(half))
            inner.mpint(signature.suffix(half))
            writer.string(inner.bytes)
        } else {
            writer.string(signature)
        }
        return writer.bytes
    }
}
