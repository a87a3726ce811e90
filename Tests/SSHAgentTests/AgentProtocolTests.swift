import Foundation
import Testing

@testable import SSHAgent

#if canImport(Glibc)
import Glibc
#endif

/// The agent's socket spoken to directly: frames OpenSSH's tools never send (malformed, too long, unknown), and
/// the extensions they do.
@Suite(.timeLimit(.minutes(2)))
struct AgentProtocolTests {
    @Test func unknownMessagesFailAndTheConnectionGoesOn() throws {
        let harness = try AgentHarness()
        let client = try RawAgentClient(path: harness.socket)
        #expect(try client.request(Data([200])) == Data([AgentMessageNumber.failure]))
        #expect(try client.request(Data([11])) == Data([AgentMessageNumber.identitiesAnswer, 0, 0, 0, 0]))
    }

    @Test func aMalformedMessageFailsAndClosesTheConnection() throws {
        let harness = try AgentHarness()
        let client = try RawAgentClient(path: harness.socket)
        // A sign request whose key blob claims more bytes than the message holds.
        #expect(try client.request(Data([13, 0xff, 0xff, 0xff, 0xff, 1])) == Data([AgentMessageNumber.failure]))
        #expect(client.isClosedByPeer())
    }

    @Test func aFrameLongerThan256KiBIsRefusedBeforeItIsRead() throws {
        let harness = try AgentHarness()
        let client = try RawAgentClient(path: harness.socket)
        client.send(Data([0x00, 0x04, 0x00, 0x01]))  // 256 KiB + 1
        #expect(try client.response() == Data([AgentMessageNumber.failure]))
        #expect(client.isClosedByPeer())
        // The agent still serves others.
        let other = try RawAgentClient(path: harness.socket)
        #expect(try other.request(Data([11])) == Data([AgentMessageNumber.identitiesAnswer, 0, 0, 0, 0]))
    }

    @Test func aSessionBindIsVerifiedAndUnknownExtensionsFail() throws {
        let harness = try AgentHarness()
        let client = try RawAgentClient(path: harness.socket)
        let host = try TestHost(.ed25519)
        let session = TestHost.sessionIdentifier()
        func bind(signature: Data) -> Data {
            var bind = SSHWireWriter()
            bind.byte(AgentMessageNumber.extension)
            bind.text("session-bind@openssh.com")
            bind.string(host.blob)
            bind.string(session)
            bind.string(signature)
            bind.boolean(false)
            return bind.bytes
        }
        // A bad signature is answered as OpenSSH's agent answers a failed extension; the connection goes on.
        #expect(try client.request(bind(signature: try host.signature(of: Data("another session".utf8)))) == Data([AgentMessageNumber.extensionFailure]))
        #expect(try client.request(bind(signature: try host.signature(of: session))) == Data([AgentMessageNumber.success]))
        var unknown = SSHWireWriter()
        unknown.byte(AgentMessageNumber.extension)
        unknown.text("no-such-extension@example.com")
        #expect(try client.request(unknown.bytes) == Data([AgentMessageNumber.failure]))
    }

    @Test func aSessionBindIsServedWhileTheAgentIsLocked() throws {
        let harness = try AgentHarness()
        let client = try RawAgentClient(path: harness.socket)
        var lock = SSHWireWriter()
        lock.byte(AgentMessageNumber.lock)
        lock.text("secret")
        #expect(try client.request(lock.bytes) == Data([AgentMessageNumber.success]))
        let host = try TestHost(.p256)
        let session = TestHost.sessionIdentifier()
        var bind = SSHWireWriter()
        bind.byte(AgentMessageNumber.extension)
        bind.text("session-bind@openssh.com")
        bind.string(host.blob)
        bind.string(session)
        bind.string(try host.signature(of: session))
        bind.boolean(true)
        #expect(try client.request(bind.bytes) == Data([AgentMessageNumber.success]))
        // Everything else but listing still fails.
        #expect(try client.request(Data([AgentMessageNumber.requestIdentities])) == Data([AgentMessageNumber.identitiesAnswer, 0, 0, 0, 0]))
        var unknown = SSHWireWriter()
        unknown.byte(AgentMessageNumber.extension)
        unknown.text("query")
        #expect(try client.request(unknown.bytes) == Data([AgentMessageNumber.failure]))
    }

    @Test func aClientStuckInTheMiddleOfAFrameHoldsNoOtherConnection() throws {
        let harness = try AgentHarness()
        let stuck = try RawAgentClient(path: harness.socket)
        stuck.send(Data([0, 0, 0, 9, 13]))  // a sign request announced, never finished
        let others = (0..<8).map { _ in try? RawAgentClient(path: harness.socket) }
        for other in others {
            #expect(try other?.request(Data([11])) == Data([AgentMessageNumber.identitiesAnswer, 0, 0, 0, 0]))
        }
        #expect(try harness.run(["ssh-add", "-l"]).output.contains("no identities"))
    }

    @Test func protocolOnesRemoveAllFailsAsAnyUnknownMessage() throws {
        // `ssh-add -D` also sends protocol 1's SSH_AGENTC_REMOVE_ALL_RSA_IDENTITIES (9); it fails, as any unknown message.
        let harness = try AgentHarness()
        let client = try RawAgentClient(path: harness.socket)
        #expect(try client.request(Data([9])) == Data([AgentMessageNumber.failure]))
    }
}

/// A client of the agent's socket that sends raw frames.
final class RawAgentClient {
    private let descriptor: Int32

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw HarnessFailure("cannot connect to \(path) (errno \(errno))")
        }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// Sends raw bytes.
    func send(_ data: Data) {
        _ = data.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Sends `payload` as one frame and returns the answer's payload.
    func request(_ payload: Data) throws -> Data {
        var writer = SSHWireWriter()
        writer.string(payload)
        send(writer.bytes)
        return try response()
    }

    /// The next answer's payload.
    func response() throws -> Data {
        let header = try read(4)
        return try read(header.reduce(0) { $0 << 8 | Int($1) })
    }

    /// Whether the agent has closed its end (a read finds the end of the stream).
    func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, 0) == 0
    }

    private func read(_ count: Int) throws -> Data {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + filled, count - filled, 0) }
            guard got > 0 else { throw HarnessFailure("the agent closed the connection or did not answer") }
            filled += got
        }
        return Data(buffer)
    }
}
