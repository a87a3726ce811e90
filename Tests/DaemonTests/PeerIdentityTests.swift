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

@Suite("Who is calling", .timeLimit(.minutes(10)))
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
        let identity = try PeerIdentifier().identify(
            peer: peer, registry: InMemoryPrograms(),
            isAbandoned: {
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
        let registry = InMemoryPrograms([
            RegisteredApp(
                path: ownPath, appID: "TEAM.tests", groups: [], identity: .init(gid: 4242, device: 0, inode: 0))
        ])
        let identity = try PeerIdentifier().identify(peer: peer, registry: registry, isAbandoned: { false })
        guard case .refused(let reason) = identity.kind else {
            Issue.record("expected a refusal, got \(identity.kind)")
            return
        }
        #expect(reason.contains("does not run with that group"))
        #expect(registry.snapshot.caller(for: identity).accessGroups == .list([]))
    }

    /// The Secret Service provider and the ssh-agent may not read a setgid program's `/proc/PID/exe` (it is not
    /// dumpable and they have no `CAP_SYS_PTRACE`): a registered identity group the kernel captured at connect,
    /// which `/proc/PID/status` says the process got through a setgid file, identifies it alone. Played here with a
    /// `/proc` of the test's making that shows this process's status but no executable.
    @Test func anIdentityGroupProgramWhoseExecutableIsHiddenIsKnownByItsCredentials() throws {
        let procRoot = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-proc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: procRoot) }
        let pid = getpid()
        let folder = procRoot.appendingPathComponent(String(pid))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func status(real: UInt32, effective: UInt32) throws {
            try "Name:\tprogram\nGid:\t\(real)\t\(effective)\t\(effective)\t\(effective)\n"
                .write(to: folder.appendingPathComponent("status"), atomically: true, encoding: .utf8)
        }
        let registry = InMemoryPrograms([
            RegisteredApp(
                path: "/usr/lib/example/registered", appID: "TEAM.example", groups: ["TEAM.shared"],
                identity: .init(gid: 4242, device: 1, inode: 2))
        ])
        let identifier = PeerIdentifier(procRoot: procRoot.path)
        let peer = PeerCredentials(pid: pid, uid: getuid(), gid: 4242, pidfd: -1)

        try status(real: 1000, effective: 4242)
        let identity = try identifier.identify(peer: peer, registry: registry, isAbandoned: { false })
        #expect(identity.kind == .identityGroupProgram(gid: 4242))
        #expect(identity.executablePath == "/usr/lib/example/registered")
        #expect(registry.snapshot.caller(for: identity).accessGroups == .list(["TEAM.shared", "TEAM.example"]))

        // The group as its real group (sg, newgrp, a member): not through the setgid file, so not the program.
        try status(real: 4242, effective: 4242)
        #expect(throws: IdentificationError.self) { try identifier.identify(peer: peer, registry: registry, isAbandoned: { false }) }
        // A group that is no registered identity group proves nothing without the executable.
        try status(real: 1000, effective: 4343)
        let unregistered = PeerCredentials(pid: pid, uid: getuid(), gid: 4343, pidfd: -1)
        #expect(throws: IdentificationError.self) { try identifier.identify(peer: unregistered, registry: registry, isAbandoned: { false }) }
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
