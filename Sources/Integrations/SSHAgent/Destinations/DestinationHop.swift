import Foundation

/// One end of a ``DestinationConstraint`` (OpenSSH's `dest_constraint_hop`): an optional user-name pattern, a host
/// name, and the host's keys.
public struct DestinationHop: Equatable, Sendable {
    /// The longest user pattern accepted, in bytes (`AGENT_USER_CONSTRAINT_MAX_LEN`).
    public static let maximumUserLength = 256

    /// A host key of the hop.
    public struct HostKey: Equatable, Sendable {
        /// The public key's blob.
        public let blob: Data
        /// Whether it is a certificate authority's key, trusted to sign the host's certificate.
        public let isCertificateAuthority: Bool

        /// A host key of these values.
        public init(blob: Data, isCertificateAuthority: Bool) {
            self.blob = blob
            self.isCertificateAuthority = isCertificateAuthority
        }
    }

    /// The user-name pattern (`*` and `?` wildcards) the key may log in as at this hop; nil for any user.
    public let user: String?
    /// The host's name as `ssh-add -h` gave it; nil for the origin.
    public let hostname: String?
    /// The host's keys.
    public let keys: [HostKey]

    /// A hop of these values.
    public init(user: String?, hostname: String?, keys: [HostKey]) {
        self.user = user
        self.hostname = hostname
        self.keys = keys
    }

    /// The hop in `bytes`: `string user, string hostname, string reserved`, then `string key, byte is-ca` repeated
    /// to the end (OpenSSH's `parse_dest_constraint_hop`). An empty user or hostname is none.
    init(_ bytes: Data) throws(SSHWireError) {
        var reader = SSHWireReader(bytes)
        let user = try Self.cString(&reader)
        let hostname = try Self.cString(&reader)
        guard try reader.string().isEmpty else { throw SSHWireError("a destination hop has extensions") }
        guard user.utf8.count <= Self.maximumUserLength else { throw SSHWireError("a destination hop's user pattern is too long") }
        var keys: [HostKey] = []
        while !reader.isAtEnd {
            let blob = try reader.string()
            // A blob that begins with a type name; its type need not be one the agent reads, since a host binds
            // only with a key it can verify, and such a key never equals this one.
            var keyReader = SSHWireReader(blob)
            guard let type = try? keyReader.text(), !type.isEmpty else { throw SSHWireError("a destination hop's host key is malformed") }
            keys.append(HostKey(blob: Data(blob), isCertificateAuthority: try reader.byte() != 0))
        }
        self.init(user: user.isEmpty ? nil : user, hostname: hostname.isEmpty ? nil : hostname, keys: keys)
    }

    /// The hop's encoding, as ``init(_:)`` reads it.
    var encoded: Data {
        var writer = SSHWireWriter()
        writer.text(user ?? "")
        writer.text(hostname ?? "")
        writer.string(Data())
        for key in keys {
            writer.string(key.blob)
            writer.byte(key.isCertificateAuthority ? 1 : 0)
        }
        return writer.bytes
    }

    /// Whether `hostKey` (a host key's blob, as a binding holds it) is one of this hop's keys, as OpenSSH's
    /// `match_key_hop` decides: a plain key equal to one that is not a certificate authority's, or a host certificate
    /// that one of the hop's `@cert-authority` keys signed, valid at `time` (seconds since 1970) for the hop's name.
    func matches(hostKey: Data?, at time: UInt64) -> Bool {
        guard let hostKey else { return false }
        let certificate = keys.contains(where: \.isCertificateAuthority) ? SSHCertificate(blob: hostKey) : nil
        return keys.contains { key in
            guard key.isCertificateAuthority else { return key.blob == hostKey }
            return certificate?.certifiesHost(hostname, signedBy: key.blob, at: time) ?? false
        }
    }

    /// A C string as `sshbuf_get_cstring` reads it: UTF-8 text without a NUL byte.
    private static func cString(_ reader: inout SSHWireReader) throws(SSHWireError) -> String {
        let text = try reader.text()
        guard !text.utf8.contains(0) else { throw SSHWireError("a name holds a NUL byte") }
        return text
    }
}
