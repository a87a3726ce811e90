import Crypto
import Foundation

/// The public key in the formats other tools read: X.509 `SubjectPublicKeyInfo` (DER and PEM, what
/// `openssl pkey -pubin` reads) and an OpenSSH `authorized_keys` line. For a private key, the formats
/// describe its public half; nothing here ever holds private bytes.
extension AsymmetricKey {
    /// The public key as X.509 `SubjectPublicKeyInfo` DER (swift-crypto's and libcrypto's encodings).
    public var subjectPublicKeyInfo: Data {
        switch publicKey.material {
        case .ecPublic(let key): key.subjectPublicKeyInfo
        case .rsaPublic(let key): key.subjectPublicKeyInfo
        case .edPublic(let key): Self.ed25519SubjectPublicKeyInfoPrefix + key.rawRepresentation
        case .ecPrivate, .rsaPrivate, .edPrivate: preconditionFailure("a public key's material is public")
        }
    }

    /// `SEQUENCE { SEQUENCE { id-Ed25519 }, BIT STRING (32 bytes) }` before the point (RFC 8410 §4).
    private static let ed25519SubjectPublicKeyInfoPrefix = Data([0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00])

    /// ``subjectPublicKeyInfo`` as PEM: `-----BEGIN PUBLIC KEY-----`, base64 in lines of 64, a final newline.
    public var subjectPublicKeyInfoPEM: String {
        let body = subjectPublicKeyInfo.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN PUBLIC KEY-----\n\(body)\n-----END PUBLIC KEY-----\n"
    }

    /// The public key as one OpenSSH `authorized_keys` line (RFC 4253 §6.6, RFC 5656 §3.1, RFC 8709 §4):
    /// `ssh-rsa`, `ecdsa-sha2-nistp256|384|521` or `ssh-ed25519`, the base64 key blob, and `comment` when given,
    /// without a newline.
    public func openSSHPublicKey(comment: String? = nil) -> String {
        var blob = SSHWireEncoder()
        let name: String
        switch publicKey.material {
        case .ecPublic(let key):
            let curve = "nistp\(key.curve.sizeInBits)"
            name = "ecdsa-sha2-\(curve)"
            blob.string(Data(name.utf8))
            blob.string(Data(curve.utf8))
            blob.string(key.x963Representation)
        case .rsaPublic(let key):
            name = "ssh-rsa"
            blob.string(Data(name.utf8))
            blob.mpint(key.publicExponent)
            blob.mpint(key.modulus)
        case .edPublic(let key):
            name = "ssh-ed25519"
            blob.string(Data(name.utf8))
            blob.string(key.rawRepresentation)
        case .ecPrivate, .rsaPrivate, .edPrivate:
            preconditionFailure("a public key's material is public")
        }
        let line = "\(name) \(blob.bytes.base64EncodedString())"
        guard let comment, !comment.isEmpty else { return line }
        return "\(line) \(comment)"
    }
}

/// SSH's wire encoding of the two types a public key blob uses (RFC 4251 §5).
private struct SSHWireEncoder {
    private(set) var bytes = Data()

    /// A `string`: a 32-bit big-endian length, then the bytes.
    mutating func string(_ value: Data) {
        withUnsafeBytes(of: UInt32(value.count).bigEndian) { bytes.append(contentsOf: $0) }
        bytes.append(value)
    }

    /// An `mpint` holding the non-negative big-endian number `magnitude`: no leading zero bytes, then one
    /// zero byte if the top bit is set (so that it does not read as negative).
    mutating func mpint(_ magnitude: Data) {
        var significant = Data(magnitude.drop(while: { $0 == 0 }))
        if let first = significant.first, first & 0x80 != 0 { significant.insert(0, at: 0) }
        string(significant)
    }
}
