import Foundation

/// One destination constraint of `restrict-destination-v00@openssh.com` (`ssh-add -h`, OpenSSH's PROTOCOL.agent):
/// a key may be used from the hop ``from`` to the hop ``to``.
///
/// `ssh-add -h host` sends one whose ``from`` is empty (the origin: this machine) and whose ``to`` names `host` with
/// its keys from the known_hosts files; `-h a>b` one from `a` (with its keys) to `b`.
public struct DestinationConstraint: Equatable, Sendable {
    /// The most constraints one key carries, as OpenSSH's agent (`AGENT_MAX_DEST_CONSTRAINTS`).
    public static let maximumCount = 1024

    /// Where the key is used from; empty for the origin.
    public let from: DestinationHop
    /// Where the key may be used; it always names a host and has keys.
    public let to: DestinationHop

    /// A constraint between these hops (unchecked: ``list(_:)`` checks what it reads).
    public init(from: DestinationHop, to: DestinationHop) {
        self.from = from
        self.to = to
    }

    /// The constraints of a `restrict-destination-v00@openssh.com` extension's contents: `string constraint`
    /// repeated to the end, each `string from-hop, string to-hop, string reserved` (OpenSSH's
    /// `parse_dest_constraint`). Throws on anything OpenSSH's agent would refuse: a non-empty reserved field, a
    /// ``from`` that names a host without keys (or keys without a host) or a user, a ``to`` without a host or
    /// without keys, more than ``maximumCount``.
    public static func list(_ contents: Data) throws(SSHWireError) -> [DestinationConstraint] {
        var reader = SSHWireReader(contents)
        var constraints: [DestinationConstraint] = []
        while !reader.isAtEnd {
            guard constraints.count < maximumCount else { throw SSHWireError("more than \(maximumCount) destination constraints") }
            var constraint = SSHWireReader(try reader.string())
            let from = try DestinationHop(try constraint.string())
            let to = try DestinationHop(try constraint.string())
            guard try constraint.string().isEmpty else { throw SSHWireError("a destination constraint has extensions") }
            // OpenSSH reads nothing after the reserved field; neither does this.
            guard (from.hostname == nil) == from.keys.isEmpty, from.user == nil else {
                throw SSHWireError("a destination constraint's \"from\" hop is inconsistent")
            }
            guard to.hostname != nil, !to.keys.isEmpty else { throw SSHWireError("a destination constraint's \"to\" hop is incomplete") }
            constraints.append(DestinationConstraint(from: from, to: to))
        }
        return constraints
    }

    /// `constraints` in the form ``list(_:)`` reads (the extension's contents, as `ssh-add` encodes them).
    public static func encoded(_ constraints: [DestinationConstraint]) -> Data {
        var writer = SSHWireWriter()
        for constraint in constraints {
            var inner = SSHWireWriter()
            inner.string(constraint.from.encoded)
            inner.string(constraint.to.encoded)
            inner.string(Data())
            writer.string(inner.bytes)
        }
        return writer.bytes
    }

    /// Whether any host key of either hop is a certificate authority's (`@cert-authority` in known_hosts).
    public var namesCertificateAuthority: Bool {
        from.keys.contains(where: \.isCertificateAuthority) || to.keys.contains(where: \.isCertificateAuthority)
    }
}
