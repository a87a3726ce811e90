import CofferRuntime
import ProgramIdentity
import Daemon
import Foundation
import KeychainClient
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// `PeerIdentifier.identify` on real connections from alice's programs: each kind of caller is told apart.
extension MultiUserDaemonTests {
    static let trustedGroup = "coffer-test-cli"
    static let identityGroup = "coffer-test-idgrp"

    /// Connects `command` (run as alice) to `listening`, identifies it with `identifier`, and lets it go.
    private func identify(
        _ command: [String], listening: Int32, identifier: PeerIdentifier, registry: some RegisteredPrograms
    ) throws -> PeerIdentity {
        let process = try ChildProcess(["/usr/sbin/runuser", "-u", Self.alice, "--"] + command, input: .pipe, errors: .null)
        defer { _ = try? process.finish(timeout: .seconds(60)) }
        #expect(process.nextOutputLine()?.hasPrefix("ready") == true)
        let connection = accept(listening, nil, nil)
        defer { close(connection) }
        let peer = try PeerCredentials.of(socket: connection)
        defer { peer.close() }
        return try identifier.identify(peer: peer, registry: registry, isAbandoned: { SocketHangup.hasHungUp(connection) })
    }

    @Test(.enabled(if: HostCapabilities.unprivilegedUserNamespaces, "this machine does not let a user make a user namespace (unshare -Ur)"))
    func identifyTellsEveryKindOfCallerApart() throws {
        let fixture = try Fixture()
        for group in [Self.trustedGroup, Self.identityGroup] where getgrnam(group) == nil {
            #expect(try Self.run(["/usr/sbin/groupadd", "--system", group]).status == 0)
        }
        defer { for group in [Self.trustedGroup, Self.identityGroup] { _ = try? Self.run(["/usr/sbin/groupdel", group]) } }
        let trustedGID = try #require(getgrnam(Self.trustedGroup)?.pointee.gr_gid)
        let identityGID = try #require(getgrnam(Self.identityGroup)?.pointee.gr_gid)
        // app-a carries an identity group, "coffer" (a copy of the helper) the trusted group; app-b is registered by path.
        let cli = fixture.program("coffer")
        try FileManager.default.copyItem(atPath: Fixture.helper.path, toPath: cli)
        for (path, gid) in [(fixture.program("app-a"), identityGID), (cli, trustedGID)] {
            #expect(chown(path, 0, gid) == 0 && chmod(path, 0o2755) == 0)
        }
        let appA = try #require(FileIdentity.at(path: fixture.program("app-a")))
        let registry = InMemoryPrograms([
            RegisteredApp(
                path: fixture.program("app-a"), appID: "TEAM.a", groups: [], identity: .init(gid: identityGID, device: appA.device, inode: appA.inode)),
            RegisteredApp(path: fixture.program("app-b"), appID: "TEAM.b", groups: []),
        ])
        let socketPath = fixture.root.appendingPathComponent("run/identify").path
        let listening = try UnixSocket.listen(at: socketPath, mode: 0o666)
        defer { close(listening) }
        let identifier = PeerIdentifier(trustedFrontEndGroup: trustedGID)
        func kind(_ command: [String]) throws -> PeerIdentity { try identify(command, listening: listening, identifier: identifier, registry: registry) }
        func program(_ name: String) -> [String] { [fixture.program(name), "connect-and-wait", socketPath] }

        #expect(try kind(program("app-a")).kind == .identityGroupProgram(gid: identityGID))
        #expect(try kind(program("app-b")).kind == .pathModeProgram(path: fixture.program("app-b"), sha256: nil))
        #expect(try kind(program("app-c")).kind == .unregistered(group: AppRegistry.unregisteredGroup(forPath: fixture.program("app-c"))))
        let frontEnd = try kind(program("coffer"))
        #expect(frontEnd.isTrustedFrontEnd)
        #expect(frontEnd.kind == .trustedFrontEnd(group: AppRegistry.unregisteredGroup(forPath: cli)))
        let aliceUID = UInt32(try fixture.uid(Self.alice))
        #expect(frontEnd.gid == trustedGID && frontEnd.uid == aliceUID)
        // The same programs in a user and mount namespace of their own: no group proof, no path proof.
        let namespaced = ["/usr/bin/unshare", "-Urm"]
        guard case .refused = try kind(namespaced + program("app-a")).kind else { Issue.record("app-a in a namespace"); return }
        guard case .refused = try kind(namespaced + program("app-b")).kind else { Issue.record("app-b in a namespace"); return }
        #expect(try !kind(namespaced + program("coffer")).isTrustedFrontEnd)
        #expect(try kind(namespaced + program("app-c")).kind == .unregistered(group: AppRegistry.foreignNamespaceGroup(forPath: fixture.program("app-c"))))
        // A member of the trusted group who takes it as real group (sg) runs the CLI without secure execution: not trusted.
        #expect(try Self.run(["/usr/sbin/usermod", "-a", "-G", Self.trustedGroup, Self.alice]).status == 0)
        defer { _ = try? Self.run(["/usr/bin/gpasswd", "-d", Self.alice, Self.trustedGroup]) }
        #expect(try !kind(["/usr/bin/sg", Self.trustedGroup, "-c", (program("coffer")).joined(separator: " ")]).isTrustedFrontEnd)
    }
}
