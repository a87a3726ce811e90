import Foundation
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// A program registered by identity group, as the README recommends, stores and reads its own Secret Service items
/// through the provider, which runs as the user and cannot read the setgid program's executable: it recognises it by
/// the group the bus reports from connect time. Another program of the user finds nothing.
extension MultiUserDaemonTests {
    @Test func aProgramRegisteredByIdentityGroupKeepsItsOwnSecretServiceItems() throws {
        try DebianPackages.ensureInstalled(["dbus-daemon", "libsecret-tools"])
        let fixture = try Fixture()
        try fixture.startDaemon()
        let alice = Self.alice
        #expect(try fixture.coffer(alice, ["passcode", "set"], input: "alice-code\n").status == 0)
        let registered = fixture.program("secret-tool-app")
        try FileManager.default.copyItem(atPath: "/usr/bin/secret-tool", toPath: registered)
        _ = chmod(registered, 0o755)
        try fixture.registerByIdentityGroup(alice, "secret-tool-app", appID: "TEAM.secret-tool", passcode: "alice-code")
        let provider = fixture.program("coffer-secret-service")
        try FileManager.default.copyItem(atPath: Fixture.binaries.appendingPathComponent("coffer-secret-service").path, toPath: provider)
        _ = chmod(provider, 0o755)

        // Alice's session bus, the system's dbus-daemon on a socket in her folder.
        let home = fixture.root.appendingPathComponent("alice-bus")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let socket = home.appendingPathComponent("bus").path
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default"><allow send_destination="*"/><allow receive_sender="*"/><allow own="*"/></policy>
        </busconfig>
        """.write(to: home.appendingPathComponent("bus.conf"), atomically: true, encoding: .utf8)
        #expect(try Self.run(["/bin/chown", "-R", alice, home.path]).status == 0)
        let bus = try ChildProcess(
            [
                "/usr/sbin/runuser", "-u", alice, "--", "/usr/bin/dbus-daemon", "--nofork", "--print-address",
                "--config-file=\(home.appendingPathComponent("bus.conf").path)",
            ], output: .pipe, errors: .null)
        defer { bus.kill() }
        #expect(bus.nextOutputLine(timeout: .seconds(20))?.hasPrefix("unix:") == true)
        // GLib ignores DBUS_SESSION_BUS_ADDRESS in a setgid program and finds the bus at $XDG_RUNTIME_DIR/bus, as on a desktop.
        let session = [
            "/usr/bin/env", "DBUS_SESSION_BUS_ADDRESS=unix:path=\(socket)", "XDG_RUNTIME_DIR=\(home.path)", "COFFER_SOCKET=\(fixture.socket)",
        ]
        let served = try ChildProcess(["/usr/sbin/runuser", "-u", alice, "--"] + session + [provider], output: .pipe, errors: .pipe)
        defer { served.kill() }
        let ready = served.nextOutputLine(timeout: .seconds(30))
        #expect(ready == "coffer-secret-service: serving org.freedesktop.secrets")
        if ready == nil {
            served.kill()
            Issue.record("the provider did not start: \((try? served.finish(timeout: .seconds(5)).errorText) ?? "")")
            return
        }
        func asAlice(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
            try Self.run(["/usr/sbin/runuser", "-u", alice, "--"] + session + arguments, input: input)
        }

        let stored = try asAlice([registered, "store", "--label", "Mail", "service", "example.org"], input: "hunter2")
        #expect(stored.status == 0, "\(stored.output)")
        #expect(try asAlice([registered, "lookup", "service", "example.org"]).output == "hunter2")
        // secret-tool itself is another program: it finds nothing, and its own item is its own.
        let other = try asAlice(["/usr/bin/secret-tool", "lookup", "service", "example.org"])
        #expect(other.status != 0)
        #expect(other.output.isEmpty)
        #expect(try asAlice(["/usr/bin/secret-tool", "store", "--label", "Other", "service", "example.org"], input: "other").status == 0)
        #expect(try asAlice([registered, "lookup", "service", "example.org"]).output == "hunter2")
        #expect(try asAlice(["/usr/bin/secret-tool", "lookup", "service", "example.org"]).output == "other")
    }
}
