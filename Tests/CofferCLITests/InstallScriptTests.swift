import Foundation
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// `packaging/install.sh --user` installs every executable, the user units and the D-Bus activation file pointing at
/// where it put them, without root; `--uninstall` removes them and leaves the keychain.
@Suite("packaging/install.sh --user", .timeLimit(.minutes(10)))
struct InstallScriptTests {
    private static var repository: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }
    private static let executables = ["coffer", "cofferd", "coffer-secret-service", "git-credential-coffer", "docker-credential-coffer"]

    @Test func aPerUserInstallPutsEverythingUnderThePrefixAndUninstallRemovesIt() throws {
        let root = URL(fileURLWithPath: "/tmp/coffer-install-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        // A copy of what the script reads, and a home, where the installing user may reach them.
        let copy = root.appendingPathComponent("repository")
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        _ = chmod(root.path, 0o755)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        for name in ["packaging", "README.md", "SECURITY.md"] {
            try FileManager.default.copyItem(at: Self.repository.appendingPathComponent(name), to: copy.appendingPathComponent(name))
        }
        let binaries = try Self.executables.map { try SharedExecutables.path($0) }
        let bin = (binaries[0] as NSString).deletingLastPathComponent
        var asUser: [String] = []
        if getuid() == 0 {
            #expect(chown(home.path, 65_534, 65_534) == 0)
            asUser = ["/usr/bin/setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", "--"]
        }
        let environment = [
            "HOME": home.path, "PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
        ]
        let script = copy.appendingPathComponent("packaging/install.sh").path
        let installed = try ChildProcess.run(
            asUser + ["/usr/bin/env"] + environment.map { "\($0.key)=\($0.value)" } + [script, "--user", "--bin", bin, "--no-start"])
        #expect(installed.status == 0, "\(installed.outputText) \(installed.errorText)")
        let prefix = home.appendingPathComponent(".local").path
        for name in Self.executables {
            #expect(FileManager.default.isExecutableFile(atPath: "\(prefix)/bin/\(name)"), "\(name)")
        }
        let unit = try String(contentsOfFile: home.appendingPathComponent(".config/systemd/user/coffer-secret-service.service").path, encoding: .utf8)
        #expect(unit.contains("ExecStart=\(prefix)/bin/coffer-secret-service"))
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent(".config/systemd/user/cofferd-user.service").path))
        let activation = try String(contentsOfFile: "\(prefix)/share/coffer/dbus-1/services/org.freedesktop.secrets.service", encoding: .utf8)
        #expect(activation.contains("Exec=\(prefix)/bin/coffer-secret-service"))
        let completion = try String(contentsOfFile: "\(prefix)/share/bash-completion/completions/coffer", encoding: .utf8)
        #expect(completion.contains("coffer"))
        #expect(installed.outputText.contains("installed in \(prefix)"))

        let removed = try ChildProcess.run(asUser + ["/usr/bin/env"] + environment.map { "\($0.key)=\($0.value)" } + [script, "--user", "--uninstall"])
        #expect(removed.status == 0, "\(removed.errorText)")
        for name in Self.executables { #expect(!FileManager.default.fileExists(atPath: "\(prefix)/bin/\(name)"), "\(name)") }
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent(".config/systemd/user/coffer-secret-service.service").path))
    }
}
