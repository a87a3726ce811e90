import Foundation

/// An OpenSSH certificate (`*-cert-v01@openssh.com`, OpenSSH's PROTOCOL.certkeys): a public key with the
/// principals, validity and options a certificate authority signed.
///
/// Certificates of the key types the agent keeps are read: Ed25519, ECDSA on P-256, P-384 and P-521, and RSA.
/// Reading checks the shape only; ``isSignedByItsAuthority`` checks the authority's signature, as OpenSSH does
/// whenever it reads a certificate (`cert_parse`).
public struct SSHCertificate: Sendable, Equatable {
    /// What the certificate is for (its `type` field).
    public enum Kind: UInt32, Sendable {
        /// `SSH2_CERT_TYPE_USER`: a user logging in.
        case user = 1
        /// `SSH2_CERT_TYPE_HOST`: a host's key.
        case host = 2
    }

    /// The certificate's bytes, as clients name it.
    public let blob: Data
    /// The certified key's plain public blob (`ssh-ed25519`, `ecdsa-sha2-nistpN` or `ssh-rsa`).
    public let publicKeyBlob: Data
    /// The certified key's type name, without the certificate suffix.
    public let keyType: String
    /// Whether it certifies a user or a host.
    public let kind: Kind
    /// The names the certificate is valid for; empty for any.
    public let principals: [String]
    /// The first second it is valid (seconds since 1970).
    public let validAfter: UInt64
    /// The first second it is no longer valid.
    public let validBefore: UInt64
    /// The authority's public key blob.
    public let signatureKey: Data
    /// The authority's signature blob (`string name, string signature`).
    public let signature: Data
    /// The bytes the signature covers: the certificate up to and including the authority's key.
    let signedBytes: Data

    /// The suffix of every certificate type name.
    static let typeSuffix = "-cert-v01@openssh.com"
    /// The key types whose certificates are read.
    static let keyTypes = ["ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "ssh-rsa"]

    /// The certificate in `blob`; nil when it is not a well-formed certificate of a key type read here.
    public init?(blob: Data) {
        var reader = SSHWireReader(blob)
        guard let type = try? reader.text(), type.hasSuffix(Self.typeSuffix) else { return nil }
        let keyType = String(type.dropLast(Self.typeSuffix.count))
        do {
            _ = try reader.string()  // nonce
            var plain = SSHWireWriter()
            plain.text(keyType)
            switch keyType {
            case "ssh-ed25519":
                let point = try reader.string()
                guard point.count == 32 else { return nil }
                plain.string(point)
            case "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521":
                let curve = try reader.text()
                guard "ecdsa-sha2-\(curve)" == keyType else { return nil }
                plain.text(curve)
                plain.string(try reader.string())
            case "ssh-rsa":
                let exponent = try reader.positiveMPInt()
                let modulus = try reader.positiveMPInt()
                plain.mpint(exponent)
                plain.mpint(modulus)
            default:
                return nil
            }
            _ = try reader.uint64()  // serial
            guard let kind = Kind(rawValue: try reader.uint32()) else { return nil }
            _ = try reader.string()  // key id
            var principalReader = SSHWireReader(try reader.string())
            var principals: [String] = []
            while !principalReader.isAtEnd { principals.append(try principalReader.text()) }
            let validAfter = try reader.uint64()
            let validBefore = try reader.uint64()
            _ = try reader.string()  // critical options
            _ = try reader.string()  // extensions
            _ = try reader.string()  // reserved
            let signatureKey = try reader.string()
            let signedLength = reader.consumed
            let signature = try reader.string()
            guard reader.isAtEnd else { return nil }
            self.blob = Data(blob)
            publicKeyBlob = plain.bytes
            self.keyType = keyType
            self.kind = kind
            self.principals = principals
            self.validAfter = validAfter
            self.validBefore = validBefore
            self.signatureKey = Data(signatureKey)
            self.signature = Data(signature)
            signedBytes = Data(blob.prefix(signedLength))
        } catch {
            return nil
        }
    }

    /// Whether the authority's key is a plain key (a certificate cannot sign one) and its signature covers the
    /// certificate.
    public var isSignedByItsAuthority: Bool {
        guard SSHCertificate(blob: signatureKey) == nil, let authority = SSHHostKey(blob: signatureKey) else { return false }
        return authority.isValidSignature(signature, of: signedBytes)
    }

    /// The name of the authority's signature algorithm (`ssh-ed25519`, `rsa-sha2-512`…); nil when malformed.
    var signatureAlgorithm: String? {
        var reader = SSHWireReader(signature)
        return try? reader.text()
    }

    /// Whether this is a host certificate that `authority` signed and that is valid now for `hostname`, as
    /// OpenSSH's agent checks a host certificate against a `@cert-authority` key (`match_key_hop`, with
    /// `sshkey_cert_check_host`): the authority's key, a host certificate, a SHA-2 or EdDSA signature that verifies,
    /// the validity period, and a principal matching the name (patterns allowed) unless it has none.
    func certifiesHost(_ hostname: String?, signedBy authority: Data, at time: UInt64) -> Bool {
        guard kind == .host, signatureKey == authority, signatureAlgorithm != "ssh-rsa", isSignedByItsAuthority else { return false }
        guard validAfter <= time, time < validBefore else { return false }
        guard !principals.isEmpty else { return true }
        guard let hostname else { return false }
        return principals.contains { UserPattern.matches(hostname, pattern: $0) }
    }
}
