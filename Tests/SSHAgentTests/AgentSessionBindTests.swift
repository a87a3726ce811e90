import Foundation
import KeyCrypto
import Testing

@testable import SSHAgent

/// `session-bind@openssh.com` verified as OpenSSH's agent verifies it (`process_ext_session_bind`): the host's
/// signature of the session identifier, then the rules on what one connection may bind.
@Suite(.timeLimit(.minutes(2)))
struct AgentSessionBindTests {
    @Test(arguments: TestHost.Kind.allCases)
    func aGoodHostSignatureBindsAndABadOneIsRefused(kind: TestHost.Kind) throws {
        let host = try TestHost(kind)
        let session = TestHost.sessionIdentifier()
        let good = AgentConnection()
        try good.bind(hostKey: host.blob, sessionIdentifier: session, signature: try host.signature(of: session), isForwarding: false)
        #expect(good.bindings == [SessionBinding(hostKey: host.blob, sessionIdentifier: session, isForwarding: false)])

        // Signed over another session identifier, or by another key of the same type.
        let other = TestHost.sessionIdentifier()
        let otherHost = try TestHost(kind == .rsaSHA1 || kind == .rsaSHA256 || kind == .rsaSHA512 ? .p256 : kind)
        for signature in [try host.signature(of: other), try otherHost.signature(of: session)] {
            let bad = AgentConnection()
            #expect(throws: AgentRefusal.self) {
                try bad.bind(hostKey: host.blob, sessionIdentifier: session, signature: signature, isForwarding: false)
            }
            #expect(bad.bindings.isEmpty)
            #expect(bad.bindAttempted)
        }
    }

    @Test func aSignatureUnderAnotherNameOrWithTrailingBytesIsRefused() throws {
        let host = try TestHost(.p256)
        let session = TestHost.sessionIdentifier()
        var reader = SSHWireReader(try host.signature(of: session))
        _ = try reader.text()
        let body = try reader.string()
        var renamed = SSHWireWriter()
        renamed.text("ecdsa-sha2-nistp384")
        renamed.string(body)
        var trailing = SSHWireWriter()
        trailing.text("ecdsa-sha2-nistp256")
        trailing.string(body)
        trailing.byte(0)
        for signature in [renamed.bytes, trailing.bytes, Data()] {
            #expect(throws: AgentRefusal.self) {
                try AgentConnection().bind(hostKey: host.blob, sessionIdentifier: session, signature: signature, isForwarding: false)
            }
        }
    }

    @Test func aHostKeyThatIsNotAKeyIsRefused() throws {
        let connection = AgentConnection()
        var blob = SSHWireWriter()
        blob.text("ssh-dss")
        blob.string(Data(repeating: 1, count: 20))
        #expect(throws: AgentRefusal.self) {
            try connection.bind(hostKey: blob.bytes, sessionIdentifier: Data([1]), signature: Data([2]), isForwarding: false)
        }
        #expect(connection.bindAttempted)
        #expect(connection.bindings.isEmpty)
    }

    @Test func theSameSessionAgainIsAcceptedOnlyWithTheSameHostKey() throws {
        let first = try TestHost(.ed25519)
        let second = try TestHost(.ed25519)
        let connection = AgentConnection()
        let session = try first.bind(connection, forwarding: true)
        try first.bind(connection, forwarding: true, session: session)
        #expect(connection.bindings.count == 1)
        #expect(throws: AgentRefusal.self) { try second.bind(connection, forwarding: true, session: session) }
        // A new session with a host already seen is another binding.
        try first.bind(connection, forwarding: true)
        #expect(connection.bindings.count == 2)
    }

    @Test func nothingBindsAfterASessionBoundForAuthentication() throws {
        let host = try TestHost(.ed25519)
        let connection = AgentConnection()
        let session = try host.bind(connection, forwarding: false)
        #expect(throws: AgentRefusal.self) { try host.bind(connection, forwarding: true) }
        // Not even the same session again.
        #expect(throws: AgentRefusal.self) { try host.bind(connection, forwarding: false, session: session) }
        #expect(connection.bindings.count == 1)
    }

    @Test func aConnectionRecordsAtMostSixteenBindings() throws {
        let host = try TestHost(.ed25519)
        let connection = AgentConnection()
        for _ in 0..<16 { try host.bind(connection, forwarding: true) }
        #expect(throws: AgentRefusal.self) { try host.bind(connection, forwarding: true) }
        #expect(connection.bindings.count == 16)
    }

    @Test func aSessionIdentifierLongerThan128BytesIsRefused() throws {
        let host = try TestHost(.ed25519)
        let connection = AgentConnection()
        try host.bind(connection, forwarding: true, session: TestHost.sessionIdentifier(128))
        #expect(throws: AgentRefusal.self) { try host.bind(connection, forwarding: true, session: TestHost.sessionIdentifier(129)) }
        #expect(connection.bindings.count == 1)
    }
}
