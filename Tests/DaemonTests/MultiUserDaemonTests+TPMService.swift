import Foundation
import TPMFixture
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// The system cofferd's TPM service with real users: cofferd, as its own user, owns the TPM (swtpm here), and the
/// embedded keychains of alice and bob, who may not open it, are sealed through it. What one user's keychain folder
/// holds is of no use to another, even copied whole.
extension MultiUserDaemonTests {
    @Test func keychainsOfUsersWithoutTheTPMAreSealedThroughTheSystemDaemonAndOnlyForTheirUser() throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        let fixture = try Fixture()
        let service = fixture.root.appendingPathComponent("run/tpm.socket").path
        try fixture.startDaemon(environment: ["COFFER_TPM=\(tpm.tcti)"], extraArguments: ["--tpm-socket", service])
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: service) { usleep(20_000) }
        var status = stat()
        #expect(stat(service, &status) == 0 && status.st_mode & 0o777 == 0o666, "every user may connect")
        #expect(
            FileManager.default.fileExists(atPath: fixture.state.appendingPathComponent("tpm-service.key").path),
            "the service's secret is in cofferd's state folder")

        let alice = Self.alice
        let home = try fixture.home(alice)
        let made = try fixture.embeddedCoffer(alice, home: home, tpm: service, ["add-generic-password", "-s", "svc", "-a", "me", "-w", "hunter2"])
        #expect(made.status == 0, "\(made.output)")
        let bound = try fixture.embeddedCoffer(alice, home: home, tpm: service, ["keystore", "status"])
        #expect(bound.output.contains("device key: sealed by the TPM"), "\(bound.output)")
        #expect(bound.output.contains("TPM: cofferd:\(service)"))
        let read = try fixture.embeddedCoffer(alice, home: home, tpm: service, ["find-generic-password", "-s", "svc", "-a", "me", "-w"])
        #expect(read.output == "hunter2\n", "\(read.output)")
        #expect(try fixture.embeddedCoffer(alice, home: home, tpm: service, ["passcode", "set"], input: "alice-code\n").status == 0)
        let wrong = try fixture.embeddedCoffer(alice, home: home, tpm: service, ["unlock"], input: "not-it\n")
        #expect(wrong.status != 0 && wrong.output.contains("wrong passcode"), "\(wrong.output)")
        #expect(try fixture.embeddedCoffer(alice, home: home, tpm: service, ["unlock"], input: "alice-code\n").status == 0)

        // Bob, given a copy of alice's whole folder, opens nothing: the service unseals her device key only for her uid.
        let stolen = try fixture.home(Self.bob)
        _ = try Self.run(["/bin/sh", "-c", "cp -a \(home)/. \(stolen)/ && chown -R \(Self.bob) \(stolen)"])
        let refused = try fixture.embeddedCoffer(Self.bob, home: stolen, tpm: service, ["find-generic-password", "-s", "svc", "-a", "me", "-w"])
        #expect(refused.status != 0)
        #expect(refused.output.contains("made for another caller"), "\(refused.output)")
        #expect(!refused.output.contains("hunter2"))
        #expect(try tpm.lockoutCounter() == 0, "refusals never count towards the TPM's lockout")
        // Bob's own keychain is sealed through the same service, and alice's still opens.
        let own = try fixture.home(Self.bob)
        #expect(try fixture.embeddedCoffer(Self.bob, home: own, tpm: service, ["add-generic-password", "-s", "b", "-a", "b", "-w", "bob's"]).status == 0)
        #expect(try fixture.embeddedCoffer(alice, home: home, tpm: service, ["unlock"], input: "alice-code\n").status == 0)
    }
}

extension MultiUserDaemonTests.Fixture {
    /// A new keychain folder for `user`, 0700 and theirs.
    func home(_ user: String) throws -> String {
        let path = root.appendingPathComponent("home-\(user)-\(UUID().uuidString.prefix(6))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        _ = try MultiUserDaemonTests.run(["/bin/chown", user, path])
        return path
    }

    /// `coffer` as `user` on the embedded keychain in `home`, sealed through the TPM service at `tpm`.
    func embeddedCoffer(_ user: String, home: String, tpm: String, _ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
        try MultiUserDaemonTests.run(
            ["/usr/sbin/runuser", "-u", user, "--", "/usr/bin/env", "-u", "COFFER_SOCKET", "COFFER_HOME=\(home)", "COFFER_TPM=cofferd:\(tpm)", cli]
                + arguments, input: input)
    }
}
