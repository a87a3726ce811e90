import Crypto
import Foundation
import KeyCrypto

/// A host's public key, read from its SSH blob, that checks the host's signatures: the signature of the session
/// identifier a `session-bind@openssh.com` request carries (OpenSSH's PROTOCOL.agent).
///
/// Ed25519 (RFC 8709), ECDSA on P-256, P-384 and P-521 (RFC 5656) and RSA of 2048 bits or more (RFC 4253, with
/// `ssh-rsa`, `rsa-sha2-256` and `rsa-sha2-512` signatures, RFC 8332, as OpenSSH's agent accepts any of them there)
/// are read, and certificates of those (``SSHCertificate``). Security-key types and anything else are not: their
/// binding is refused.
struct SSHHostKey {
    private enum Verifier {
        case ed25519(Curve25519.Signing.PublicKey)
        case p256(P256.Signing.PublicKey)
        case p384(P384.Signing.PublicKey)
        case p521(P521.Signing.PublicKey)
        case rsa(AsymmetricKey)
    }

    /// The key's blob, as the request carried it.
    let blob: Data
    private let verifier: Verifier

    /// The key in `blob`, or nil when it is not a well-formed key of a type read here. A host certificate's blob is
    /// read as the key it certifies (its signatures are that key's), as OpenSSH's agent verifies a binding by it.
    init?(blob: Data) {
        if let certificate = SSHCertificate(blob: blob) {
            guard let certified = SSHHostKey(blob: certificate.publicKeyBlob) else { return nil }
            self.blob = Data(blob)
            verifier = certified.verifier
            return
        }
        var reader = SSHWireReader(blob)
        guard let type = try? reader.text() else { return nil }
        let verifier: Verifier?
        switch type {
        case "ssh-ed25519":
            verifier = (try? reader.string()).flatMap { try? Curve25519.Signing.PublicKey(rawRepresentation: $0) }.map(Verifier.ed25519)
        case "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521":
            guard let curve = try? reader.text(), "ecdsa-sha2-\(curve)" == type, let point = try? reader.string() else { return nil }
            switch curve {
            case "nistp256": verifier = (try? P256.Signing.PublicKey(x963Representation: point)).map(Verifier.p256)
            case "nistp384": verifier = (try? P384.Signing.PublicKey(x963Representation: point)).map(Verifier.p384)
            default: verifier = (try? P521.Signing.PublicKey(x963Representation: point)).map(Verifier.p521)
            }
        case "ssh-rsa":
            guard let exponent = try? reader.positiveMPInt(), let modulus = try? reader.positiveMPInt() else { return nil }
            let key = try? AsymmetricKey(rsaModulus: modulus, publicExponent: exponent)
            verifier = key.flatMap { $0.sizeInBits >= 2048 ? Verifier.rsa($0) : nil }
        default:
            return nil
        }
        guard let verifier, reader.isAtEnd else { return nil }
        self.blob = Data(blob)
        self.verifier = verifier
    }

    /// Whether `signatureBlob` (`string name, string signature`, with nothing after) is this key's valid signature
    /// of `data`, under a name that fits the key.
    func isValidSignature(_ signatureBlob: Data, of data: Data) -> Bool {
        var reader = SSHWireReader(signatureBlob)
        guard let name = try? reader.text(), let body = try? reader.string(), reader.isAtEnd else { return false }
        switch verifier {
        case .ed25519(let key):
            return name == "ssh-ed25519" && body.count == 64 && key.isValidSignature(body, for: data)
        case .p256(let key):
            guard name == "ecdsa-sha2-nistp256", let raw = Self.ecdsaRaw(body, fieldSize: 32),
                let signature = try? P256.Signing.ECDSASignature(rawRepresentation: raw)
            else { return false }
            return key.isValidSignature(signature, for: data)
        case .p384(let key):
            guard name == "ecdsa-sha2-nistp384", let raw = Self.ecdsaRaw(body, fieldSize: 48),
                let signature = try? P384.Signing.ECDSASignature(rawRepresentation: raw)
            else { return false }
            return key.isValidSignature(signature, for: data)
        case .p521(let key):
            guard name == "ecdsa-sha2-nistp521", let raw = Self.ecdsaRaw(body, fieldSize: 66),
                let signature = try? P521.Signing.ECDSASignature(rawRepresentation: raw)
            else { return false }
            return key.isValidSignature(signature, for: data)
        case .rsa(let key):
            return Self.isValidRSA(body, name: name, key: key, data: data)
        }
    }

    /// The ECDSA signature `mpint r, mpint s` (RFC 5656 §3.1.2), with nothing after, as r‖s each padded to
    /// `fieldSize`; nil when it is not that shape.
    private static func ecdsaRaw(_ body: Data, fieldSize: Int) -> Data? {
        var reader = SSHWireReader(body)
        guard let r = try? reader.positiveMPInt(), let s = try? reader.positiveMPInt(), reader.isAtEnd,
            r.count <= fieldSize, s.count <= fieldSize
        else { return nil }
        return Data(count: fieldSize - r.count) + r + Data(count: fieldSize - s.count) + s
    }

    /// An RSA PKCS#1 v1.5 signature under the hash its `name` gives; a signature shorter than the modulus is read
    /// with leading zeros, as OpenSSH reads it, a longer one is not valid.
    private static func isValidRSA(_ body: Data, name: String, key: AsymmetricKey, data: Data) -> Bool {
        guard body.count <= key.blockSize else { return false }
        let algorithm: KeyAlgorithm
        switch name {
        case "rsa-sha2-256": algorithm = .rsaSignatureMessagePKCS1v15SHA256
        case "rsa-sha2-512": algorithm = .rsaSignatureMessagePKCS1v15SHA512
        case "ssh-rsa": algorithm = .rsaSignatureMessagePKCS1v15SHA1
        default: return false
        }
        return (try? key.verifySignature(body, for: data, algorithm: algorithm)) != nil
    }
}
