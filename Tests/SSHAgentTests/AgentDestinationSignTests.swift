import Foundation
import KeyCrypto
import Testing

@testable import SSHAgent

/// The checks before a key with destination constraints signs (OpenSSH's `process_sign_request2` and
/// `parse_userauth_request`): only a login request for the key, for the session last bound, as a permitted user.
@Suite(.timeLimit(.minutes(2)))
struct AgentDestinationSignTests {
    /// A key the agent holds, with `destinations`.
    static func agentKey(_ destinations: [DestinationConstraint]) throws -> AgentKey {
        let key = try AsymmetricKey.generate(type: .ed25519, sizeInBits: 256).publicKey
        return AgentKey(
            publicKey: key, blob: SSHKeyType.publicKeyBlob(of: key), comment: "constrained", tag: AgentKeyTag(destinations: destinations),
            tagData: Data(), applicationLabel: Data(), isKeychainMade: false)
    }

    /// The data `ssh` asks the agent to sign for a public key login (RFC 4252 §7; `hostKey` makes it OpenSSH's
    /// `publickey-hostbound-v00@openssh.com`).
    static func login(
        session: Data, user: String, key: AgentKey, hostKey: Data? = nil, algorithm: String = "ssh-ed25519",
        service: String = "ssh-connection", trailing: Data = Data()
    ) -> Data {
        var writer = SSHWireWriter()
        writer.string(session)
        writer.byte(50)
        writer.text(user)
        writer.text(service)
        writer.text(hostKey == nil ? "publickey" : "publickey-hostbound-v00@openssh.com")
        writer.boolean(true)
        writer.text(algorithm)
        writer.string(key.blob)
        if let hostKey { writer.string(hostKey) }
        return writer.bytes + trailing
    }

    @Test func aLoginToThePermittedHostAsThePermittedUserIsSigned() throws {
        let host = try TestHost(.ed25519)
        let key = try Self.agentKey([AgentDestinationRulesTests.toHost([host], user: "alice")])
        let connection = AgentConnection()
        let session = try host.bind(connection)
        try DestinationCheck.permitSignature(of: Self.login(session: session, user: "alice", key: key, hostKey: host.blob), with: key, on: connection)
        try DestinationCheck.permitSignature(of: Self.login(session: session, user: "alice", key: key), with: key, on: connection)
    }

    @Test func everythingElseIsRefused() throws {
        let host = try TestHost(.ed25519)
        let other = try TestHost(.ed25519)
        let key = try Self.agentKey([AgentDestinationRulesTests.toHost([host], user: "alice")])
        let otherKey = try Self.agentKey([])
        let connection = AgentConnection()
        let session = try host.bind(connection)
        let refused: [(String, Data)] = [
            ("a wrong user", Self.login(session: session, user: "bob", key: key)),
            ("another session", Self.login(session: TestHost.sessionIdentifier(), user: "alice", key: key)),
            ("another host key", Self.login(session: session, user: "alice", key: key, hostKey: other.blob)),
            ("another key", Self.login(session: session, user: "alice", key: otherKey)),
            ("an algorithm of another type", Self.login(session: session, user: "alice", key: key, algorithm: "rsa-sha2-256")),
            ("another service", Self.login(session: session, user: "alice", key: key, service: "ssh-userauth")),
            ("trailing bytes", Self.login(session: session, user: "alice", key: key, trailing: Data([0]))),
            ("an empty session", Self.login(session: Data(), user: "alice", key: key)),
            ("not a login", Data("SSHSIG".utf8)),
        ]
        for (reason, data) in refused {
            #expect(throws: AgentRefusal.self, "\(reason)") { try DestinationCheck.permitSignature(of: data, with: key, on: connection) }
        }
        // A key without constraints signs anything, bound or not.
        try DestinationCheck.permitSignature(of: Data("SSHSIG".utf8), with: otherKey, on: connection)
        try DestinationCheck.permitSignature(of: Data("SSHSIG".utf8), with: otherKey, on: AgentConnection())
    }

    @Test func aConstrainedKeyNeverSignsOnAConnectionThatBoundNothing() throws {
        let host = try TestHost(.ed25519)
        let key = try Self.agentKey([AgentDestinationRulesTests.toHost([host])])
        let login = Self.login(session: TestHost.sessionIdentifier(), user: "alice", key: key, hostKey: host.blob)
        #expect(throws: AgentRefusal.self) { try DestinationCheck.permitSignature(of: login, with: key, on: AgentConnection()) }
    }

    @Test func aForwardedLoginMustNameTheLastBoundHostKey() throws {
        let jump = try TestHost(.ed25519)
        let inner = try TestHost(.p256)
        let key = try Self.agentKey([AgentDestinationRulesTests.toHost([jump]), AgentDestinationRulesTests.through(jump, to: inner)])
        let connection = AgentConnection()
        try jump.bind(connection, forwarding: true)
        let session = try inner.bind(connection)
        try DestinationCheck.permitSignature(of: Self.login(session: session, user: "alice", key: key, hostKey: inner.blob), with: key, on: connection)
        #expect(throws: AgentRefusal.self) {
            try DestinationCheck.permitSignature(of: Self.login(session: session, user: "alice", key: key), with: key, on: connection)
        }
    }
}
