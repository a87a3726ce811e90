import Foundation

/// The data of a sign request read as an SSH public key authentication request (RFC 4252 §7, and OpenSSH's
/// `publickey-hostbound-v00@openssh.com`), as OpenSSH's agent reads it (`parse_userauth_request`) before a key with
/// destination constraints signs: only such a request may be signed with one.
struct UserauthRequest {
    /// `SSH_MSG_USERAUTH_REQUEST`.
    static let messageNumber: UInt8 = 50

    /// The session identifier the request is bound to; never empty.
    let sessionIdentifier: Data
    /// The user the request logs in as, on the server.
    let user: String
    /// The host key a `publickey-hostbound-v00@openssh.com` request names; nil for a plain `publickey` one.
    let hostKey: Data?

    /// The request in `data`, when it is one for `keyBlob`: `string session-id` (not empty), `byte 50`,
    /// `string user`, `string "ssh-connection"`, `string method`, `boolean TRUE`, `string algorithm` (of the key's
    /// type), `string key` (equal to `keyBlob`), and for the hostbound method `string host-key`; nothing after.
    /// Nil for anything else.
    init?(_ data: Data, keyBlob: Data) {
        var reader = SSHWireReader(data)
        guard let session = try? reader.string(), !session.isEmpty, (try? reader.byte()) == Self.messageNumber,
            let user = try? reader.text(), !user.utf8.contains(0), (try? reader.text()) == "ssh-connection",
            let method = try? reader.text(), (try? reader.byte()) == 1, let algorithm = try? reader.text(),
            let key = try? reader.string(), key == keyBlob, Self.family(algorithm: algorithm) == Self.family(keyBlob: keyBlob),
            Self.family(keyBlob: keyBlob) != nil
        else { return nil }
        switch method {
        case "publickey":
            hostKey = nil
        case "publickey-hostbound-v00@openssh.com":
            guard let hostKey = try? reader.string(), SSHHostKey(blob: hostKey) != nil else { return nil }
            self.hostKey = Data(hostKey)
        default:
            return nil
        }
        guard reader.isAtEnd else { return nil }
        sessionIdentifier = Data(session)
        self.user = user
    }

    /// The key family an algorithm name belongs to (OpenSSH's `sshkey_type_from_name`), for the names of the key
    /// types the agent holds and of their certificates.
    private static func family(algorithm: String) -> String? {
        if algorithm.hasSuffix(SSHCertificate.typeSuffix) {
            // A certificate's family is its own: `rsa-sha2-256-cert-v01@openssh.com` names an RSA certificate.
            return family(algorithm: String(algorithm.dropLast(SSHCertificate.typeSuffix.count))).map { "\($0)-certificate" }
        }
        return switch algorithm {
        case "ssh-rsa", "rsa-sha2-256", "rsa-sha2-512": "rsa"
        case "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521": "ecdsa"
        case "ssh-ed25519": "ed25519"
        default: nil
        }
    }

    /// The key family of a public key blob, by the type name it begins with.
    private static func family(keyBlob: Data) -> String? {
        var reader = SSHWireReader(keyBlob)
        return (try? reader.text()).flatMap { family(algorithm: $0) }
    }
}
