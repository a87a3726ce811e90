import Foundation
import KeyCrypto
import Testing

@testable import SSHAgent

/// `restrict-destination-v00@openssh.com` read as OpenSSH's agent reads it (`parse_dest_constraint`,
/// `parse_dest_constraint_hop`), and its rules (`identity_permitted`, `permitted_by_dest_constraints`,
/// `match_key_hop`, and the checks of `process_sign_request2`).
@Suite(.timeLimit(.minutes(2)))
struct AgentDestinationRulesTests {
    /// A hop as `ssh-add` encodes it (authfd.c's `encode_dest_constraint_hop`), written here by hand.
    static func hop(user: String = "", hostname: String = "", reserved: Data = Data(), keys: [(Data, Bool)] = []) -> Data {
        var writer = SSHWireWriter()
        writer.text(user)
        writer.text(hostname)
        writer.string(reserved)
        for (blob, isCA) in keys {
            writer.string(blob)
            writer.boolean(isCA)
        }
        return writer.bytes
    }

    /// A constraint as `ssh-add` encodes it (`encode_dest_constraint`).
    static func constraint(from: Data, to: Data, reserved: Data = Data()) -> Data {
        var inner = SSHWireWriter()
        inner.string(from)
        inner.string(to)
        inner.string(reserved)
        var writer = SSHWireWriter()
        writer.string(inner.bytes)
        return writer.bytes
    }

    /// `ssh-add -h [user@]hostname`: from the origin to `host`'s keys.
    static func toHost(_ hosts: [TestHost], hostname: String = "allowed.example", user: String? = nil) -> DestinationConstraint {
        DestinationConstraint(
            from: DestinationHop(user: nil, hostname: nil, keys: []),
            to: DestinationHop(user: user, hostname: hostname, keys: hosts.map { .init(blob: $0.blob, isCertificateAuthority: false) }))
    }

    /// `ssh-add -h from>to`: from `from`'s keys to `to`'s.
    static func through(_ from: TestHost, to: TestHost, user: String? = nil) -> DestinationConstraint {
        DestinationConstraint(
            from: DestinationHop(user: nil, hostname: "jump.example", keys: [.init(blob: from.blob, isCertificateAuthority: false)]),
            to: DestinationHop(user: user, hostname: "inner.example", keys: [.init(blob: to.blob, isCertificateAuthority: false)]))
    }

    // MARK: Reading

    @Test func aConstraintIsReadAsSSHAddEncodesIt() throws {
        let first = try TestHost(.ed25519)
        let second = try TestHost(.p256)
        let ca = try TestHost(.ed25519)
        let bytes =
            Self.constraint(from: Self.hop(), to: Self.hop(user: "alice", hostname: "allowed.example", keys: [(first.blob, false), (ca.blob, true)]))
            + Self.constraint(
                from: Self.hop(hostname: "jump.example", keys: [(first.blob, false)]), to: Self.hop(hostname: "inner.example", keys: [(second.blob, false)]))
        let read = try DestinationConstraint.list(bytes)
        #expect(
            read == [
                DestinationConstraint(
                    from: DestinationHop(user: nil, hostname: nil, keys: []),
                    to: DestinationHop(
                        user: "alice", hostname: "allowed.example",
                        keys: [
                            .init(blob: first.blob, isCertificateAuthority: false), .init(blob: ca.blob, isCertificateAuthority: true),
                        ])),
                DestinationConstraint(
                    from: DestinationHop(user: nil, hostname: "jump.example", keys: [.init(blob: first.blob, isCertificateAuthority: false)]),
                    to: DestinationHop(user: nil, hostname: "inner.example", keys: [.init(blob: second.blob, isCertificateAuthority: false)])),
            ])
        #expect(read[0].namesCertificateAuthority)
        #expect(!read[1].namesCertificateAuthority)
        // Written back byte for byte, and kept in the key's tag.
        #expect(DestinationConstraint.encoded(read) == bytes)
        let tag = AgentKeyTag(expiresAt: 1_900_000_000, confirm: true, destinations: read)
        #expect(AgentKeyTag(tag.data) == tag)
        #expect(String(decoding: tag.data, as: UTF8.self) == "coffer.ssh-agent:expires=1900000000;confirm;dest=" + bytes.base64EncodedString())
    }

    @Test func constraintsOpenSSHRefusesAreRefused() throws {
        let host = try TestHost(.ed25519)
        let to = Self.hop(hostname: "allowed.example", keys: [(host.blob, false)])
        let refused: [(String, Data)] = [
            ("a user on the first hop", Self.constraint(from: Self.hop(user: "alice"), to: to)),
            ("a from host without keys", Self.constraint(from: Self.hop(hostname: "jump.example"), to: to)),
            ("from keys without a host", Self.constraint(from: Self.hop(keys: [(host.blob, false)]), to: to)),
            ("a to hop without keys", Self.constraint(from: Self.hop(), to: Self.hop(hostname: "allowed.example"))),
            ("a to hop without a host", Self.constraint(from: Self.hop(), to: Self.hop(user: "alice", keys: [(host.blob, false)]))),
            ("a hop's reserved field", Self.constraint(from: Self.hop(), to: Self.hop(hostname: "h", reserved: Data([1]), keys: [(host.blob, false)]))),
            ("a constraint's reserved field", Self.constraint(from: Self.hop(), to: to, reserved: Data([1]))),
            (
                "a user of 257 bytes",
                Self.constraint(from: Self.hop(), to: Self.hop(user: String(repeating: "u", count: 257), hostname: "h", keys: [(host.blob, false)]))
            ),
            (
                "a key without its CA flag",
                Self.constraint(
                    from: Self.hop(),
                    to: Self.hop(hostname: "h")
                        + {
                            var w = SSHWireWriter(); w.string(host.blob); return w.bytes
                        }())
            ),
        ]
        for (reason, bytes) in refused {
            #expect(throws: SSHWireError.self, "\(reason)") { try DestinationConstraint.list(bytes) }
        }
        // A user of 256 bytes is still taken.
        let longest = Self.constraint(from: Self.hop(), to: Self.hop(user: String(repeating: "u", count: 256), hostname: "h", keys: [(host.blob, false)]))
        #expect(try DestinationConstraint.list(longest).count == 1)
    }

    @Test func anAddRequestCarriesTheConstraintAndRefusesItTwice() throws {
        let host = try TestHost(.ed25519)
        let user = try AsymmetricKey.generate(type: .ed25519, sizeInBits: 256)
        let contents = Self.constraint(from: Self.hop(), to: Self.hop(hostname: "allowed.example", keys: [(host.blob, false)]))
        func request(constraints: Int) -> Data {
            var writer = SSHWireWriter()
            writer.byte(AgentMessageNumber.addIdentityConstrained)
            writer.text("ssh-ed25519")
            writer.string(user.publicKeyBytes)
            var seed = user.externalRepresentation()
            seed.append(user.publicKeyBytes)
            writer.string(seed)
            writer.text("comment")
            writer.byte(1)
            writer.uint32(60)
            for _ in 0..<constraints {
                writer.byte(255)
                writer.text("restrict-destination-v00@openssh.com")
                writer.string(contents)
            }
            return writer.bytes
        }
        guard case .add(_, let comment, let constraints) = try AgentRequest(payload: request(constraints: 1)) else {
            Issue.record("not an add request")
            return
        }
        #expect(comment == "comment")
        #expect(constraints == [.lifetime(seconds: 60), .destinations(try DestinationConstraint.list(contents))])
        #expect(throws: SSHWireError.self) { try AgentRequest(payload: request(constraints: 2)) }
    }

    // MARK: Rules

    @Test func localUseSeesAConstrainedKeyAndAFailedBindHidesIt() throws {
        let host = try TestHost(.ed25519)
        let constraints = [Self.toHost([host])]
        #expect(AgentConnection().permits(constraints, user: nil))
        #expect(AgentConnection().permits([], user: "anyone"))
        let failed = AgentConnection()
        #expect(throws: AgentRefusal.self) {
            try failed.bind(hostKey: host.blob, sessionIdentifier: Data([1]), signature: Data(), isForwarding: false)
        }
        #expect(!failed.permits(constraints, user: nil))
        #expect(failed.permits([], user: nil))
    }

    @Test func aKeyIsPermittedAtItsHostAndHiddenElsewhere() throws {
        let allowed = try TestHost(.p256)
        let elsewhere = try TestHost(.ed25519)
        let atAllowed = AgentConnection()
        try allowed.bind(atAllowed)
        let atElsewhere = AgentConnection()
        try elsewhere.bind(atElsewhere)

        let constraints = [Self.toHost([elsewhere, allowed])]
        #expect(atAllowed.permits(constraints, user: nil))
        #expect(atAllowed.permits(constraints, user: "anyone"))
        #expect(!atElsewhere.permits([Self.toHost([allowed])], user: nil))
        #expect(!atElsewhere.permits([Self.toHost([allowed])], user: "anyone"))
        // A constraint through a jump host does not permit a direct login.
        #expect(!atAllowed.permits([Self.through(elsewhere, to: allowed)], user: nil))
    }

    @Test func theUserIsMatchedAgainstTheLastHopsPattern() throws {
        let host = try TestHost(.ed25519)
        let connection = AgentConnection()
        try host.bind(connection)
        let exact = [Self.toHost([host], user: "alice")]
        #expect(connection.permits(exact, user: "alice"))
        #expect(!connection.permits(exact, user: "bob"))
        #expect(!connection.permits(exact, user: "alice2"))
        // Listing does not know the user.
        #expect(connection.permits(exact, user: nil))
        let pattern = [Self.toHost([host], user: "a?i*")]
        #expect(connection.permits(pattern, user: "alice"))
        #expect(connection.permits(pattern, user: "ali"))
        #expect(!connection.permits(pattern, user: "al"))
        #expect(!connection.permits(pattern, user: "bob"))
        #expect(UserPattern.matches("", pattern: "*"))
        #expect(!UserPattern.matches("x", pattern: ""))
        #expect(UserPattern.matches("deploy-prod", pattern: "deploy-*-*") == false)
        #expect(UserPattern.matches("deploy-a-b", pattern: "deploy-*-*"))
    }

    @Test func aForwardingHopNeedsAConstraintForEachHop() throws {
        let jump = try TestHost(.ed25519)
        let inner = try TestHost(.p384)
        // ssh to jump with the agent forwarded (forwarding binding), then ssh from jump to inner (authentication).
        let connection = AgentConnection()
        try jump.bind(connection, forwarding: true)
        try inner.bind(connection, forwarding: false)

        let both = [Self.toHost([jump]), Self.through(jump, to: inner)]
        #expect(connection.permits(both, user: nil))
        #expect(connection.permits(both, user: "anyone"))
        #expect(!connection.permits([Self.toHost([jump])], user: nil))
        #expect(!connection.permits([Self.through(jump, to: inner)], user: nil))
        #expect(!connection.permits([Self.toHost([jump]), Self.through(jump, to: inner, user: "alice")], user: "bob"))
        #expect(connection.permits([Self.toHost([jump]), Self.through(jump, to: inner, user: "alice")], user: "alice"))
    }

    @Test func atAForwardingHopAKeyIsListedOnlyIfItMayGoOnAndNeverSigns() throws {
        let jump = try TestHost(.ed25519)
        let inner = try TestHost(.p384)
        let connection = AgentConnection()
        try jump.bind(connection, forwarding: true)
        // Allowed to log in to jump only: hidden on jump's forwarded agent.
        #expect(!connection.permits([Self.toHost([jump])], user: nil))
        // Allowed onward from jump: listed, but a login signature on a forwarding hop is refused.
        let onward = [Self.toHost([jump]), Self.through(jump, to: inner)]
        #expect(connection.permits(onward, user: nil))
        #expect(!connection.permits(onward, user: "anyone"))
    }

    @Test func aConnectionThatAuthenticatedCannotThenBeUsedAsAHop() throws {
        let first = try TestHost(.ed25519)
        let second = try TestHost(.ed25519)
        let connection = AgentConnection()
        try first.bind(connection, forwarding: false)
        #expect(throws: AgentRefusal.self) { try second.bind(connection, forwarding: false) }
        #expect(connection.permits([Self.toHost([first])], user: "anyone"))
        #expect(!connection.permits([Self.toHost([second])], user: "anyone"))
    }
}
