import Crypto
import Daemon
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Who is calling")
struct PeerIdentityTests {
    private func socketPair() throws -> (Int32, Int32) {
        var descriptors: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &descriptors) == 0 else { throw DaemonError.system("socketpair", errno) }
        return (descriptors[0], descriptors[1])
    }

    @Test func peerCredentialsNameThisProcess() throws {
        let (a, b) = try socketPair()
        defer { close(a); close(b) }
        let peer = try PeerCredentials.of(socket: a)
        defer { peer.close() }
        #expect(peer.pid == getpid())
        #expect(peer.uid == getuid())
        #expect(peer.gid == getgid())
        #expect(peer.pidfd >= 0, "SO_PEERPIDFD works on this kernel")
        #expect(peer.isStillTheConnectedProcess)
        #expect(peer.startTime != nil)
    }

    @Test func executableIdentityIsTheRunningBinary() throws {
        let (a, b) = try socketPair()
        defer { close(a); close(b) }
        let peer = try PeerCredentials.of(socket: a)
        defer { peer.close() }
        let identity = try ExecutableIdentifier().identify(peer)
        let ownPath = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(identity.path == ownPath)
        let expected = SHA256.hash(data: try Data(contentsOf: URL(fileURLWithPath: ownPath))).map { String(format: "%02x", $0) }.joined()
        #expect(identity.sha256 == expected)
    }

    @Test func anExitedPeerIsNotIdentified() throws {
        // A child connects, then exits: its pidfd no longer names its PID, so no identity is given out.
        let (a, b) = try socketPair()
        defer { close(a) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "exit 0"]
        try child.run()
        child.waitUntilExit()
        close(b)
        let peer = try PeerCredentials.of(socket: a)
        defer { peer.close() }
        // The socket pair's peer is this process; simulate the exited one through the child's pid.
        let exited = PeerCredentials(copying: peer, pid: child.processIdentifier)
        #expect(!exited.isStillTheConnectedProcess)
        #expect(throws: DaemonError.self) { try ExecutableIdentifier().identify(exited) }
    }
}
