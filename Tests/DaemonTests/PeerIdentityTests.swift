import ProgramIdentity
import Crypto
import Daemon
import Foundation
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// A registry held in memory, for identifying callers without a daemon.
final class InMemoryPrograms: RegisteredPrograms, @unchecked Sendable {
    private let lock = NSLock()
    private var registry: AppRegistry

    init(_ apps: [RegisteredApp] = []) {
        var registry = AppRegistry()
        for app in apps { registry.register(app) }
        self.registry = registry
    }

    var snapshot: AppRegistry { lock.withLock { registry } }

    func recordFile(ofGroup gid: UInt32, device: UInt64, inode: UInt64) {
        lock.withLock { _ = registry.recordFile(ofGroup: gid, device: device, inode: inode) }
    }
}

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

    @Test func anUnregisteredProgramIsNamedByItsPathWithoutHashing() throws {
        let (a, b) = try socketPair()
        defer { close(a); close(b) }
        let peer = try PeerCredentials.of(socket: a)
        defer { peer.close() }
        var hashed = false
        let identity = try PeerIdentifier().identify(peer: peer, registry: InMemoryPrograms(), isAbandoned: {
            hashed = true
            return false
        })
        let ownPath = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(identity.executablePath == ownPath)
        #expect(identity.kind == .unregistered(group: AppRegistry.unregisteredGroup(forPath: ownPath)))
        #expect(!identity.isTrustedFrontEnd)
        #expect(!hashed)
    }

    @Test func aPinnedPathModeProgramIsHashedFromTheRunningFile() throws {
        let (a, b) = try socketPair()
        defer { close(a); close(b) }
        let peer = try PeerCredentials.of(socket: a)
        defer { peer.close() }
        let ownPath = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let registry = InMemoryPrograms([RegisteredApp(path: ownPath, appID: "TEAM.tests", groups: [], pinnedSHA256: "00")])
        let identity = try PeerIdentifier().identify(peer: peer, registry: registry, isAbandoned: { false })
        let expected = SHA256.hash(data: try Data(contentsOf: URL(fileURLWithPath: ownPath))).map { String(format: "%02x", $0) }.joined()
        #expect(identity.kind == .pathModeProgram(path: ownPath, sha256: expected))
        // The pin ("00") does not match: the program gets no group until it is approved again.
        #expect(registry.snapshot.caller(for: identity).accessGroups == .list([]))
        // A peer that goes away while it is hashed is not identified at all.
        #expect(throws: IdentificationError.self) {
            try PeerIdentifier().identify(peer: peer, registry: registry, isAbandoned: { true })
        }
    }

    @Test func anIdentityGroupProgramWithoutItsGroupIsRefused() throws {
        // This process runs the registered path, but without the identity group: as after an exec after connect.
        let (a, b) = try socketPair()
        defer { close(a); close(b) }
        let peer = try PeerCredentials.of(socket: a)
        defer { peer.close() }
        let ownPath = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let registry = InMemoryPrograms([RegisteredApp(
            path: ownPath, appID: "TEAM.tests", groups: [], identity: .init(gid: 4242, device: 0, inode: 0))])
        let identity = try PeerIdentifier().identify(peer: peer, registry: registry, isAbandoned: { false })
        guard case .refused(let reason) = identity.kind else {
            Issue.record("expected a refusal, got \(identity.kind)")
            return
        }
        #expect(reason.contains("does not run with that group"))
        #expect(registry.snapshot.caller(for: identity).accessGroups == .list([]))
    }

    @Test func anExitedPeerIsNotIdentified() throws {
        // A child connects, then exits: its pidfd no longer names its PID, so no identity is given out.
        let (a, b) = try socketPair()
        defer { close(a) }
        let child = try ChildProcess(["/bin/sh", "-c", "exit 0"], output: .null, errors: .null)
        #expect(child.wait() != nil)
        close(b)
        let peer = try PeerCredentials.of(socket: a)
        defer { peer.close() }
        // The socket pair's peer is this process; simulate the exited one through the child's pid.
        let exited = PeerCredentials(copying: peer, pid: child.pid)
        #expect(!exited.isStillTheConnectedProcess)
        #expect(throws: IdentificationError.self) { try PeerIdentifier().identify(peer: exited, registry: InMemoryPrograms(), isAbandoned: { false }) }
    }
}
