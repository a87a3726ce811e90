import Foundation
import Testing
import TestProcesses

/// `packaging/build-deb.sh` makes a Debian package with every executable in /usr/bin, the units naming them there,
/// maintainer scripts that make `coffer` setgid to the trusted front end's group through dpkg-statoverride, and the
/// C libraries the executables link as its dependencies. (`packaging/test-clean-debian.sh` installs and removes it.)
@Suite("packaging/build-deb.sh", .timeLimit(.minutes(10)))
struct DebianPackageTests {
    private static var repository: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }

    @Test(.timeLimit(.minutes(5))) func thePackageHoldsEverythingWhereDebianPutsIt() throws {
        let output = URL(fileURLWithPath: "/tmp/coffer-deb-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        let bin = CLIRunner.executable.deletingLastPathComponent().path
        let built = try ChildProcess.run(
            [Self.repository.appendingPathComponent("packaging/build-deb.sh").path, "--bin", bin, "--output", output.path, "--uncompressed"],
            timeout: .seconds(240))
        try #require(built.status == 0, "\(built.errorText)")
        let package = built.outputText.trimmingCharacters(in: .newlines)
        #expect(package.hasPrefix(output.path + "/coffer_0.1.0_") && package.hasSuffix(".deb"))

        let fields = try ChildProcess.run(["/usr/bin/dpkg-deb", "-f", package, "Package", "Version", "Depends"]).outputText
        #expect(fields.contains("Package: coffer\n") && fields.contains("Version: 0.1.0\n"))
        for library in ["libc6", "libsqlite3-0", "libsystemd0", "libssl3", "adduser"] { #expect(fields.contains(library), "\(library): \(fields)") }

        let contents = try ChildProcess.run(["/usr/bin/dpkg-deb", "-c", package]).outputText
        for path in [
            "./usr/bin/coffer", "./usr/bin/cofferd", "./usr/bin/coffer-secret-service", "./usr/bin/git-credential-coffer",
            "./usr/bin/docker-credential-coffer", "./lib/systemd/system/cofferd.socket", "./usr/lib/systemd/user/cofferd-user.service",
            "./usr/share/bash-completion/completions/coffer", "./usr/share/doc/coffer/SECURITY.md",
        ] {
            #expect(contents.contains(" \(path)\n"), "\(path)")
        }
        #expect(contents.split(separator: "\n").allSatisfy { $0.contains("root/root") }, "files owned by root")

        let unpacked = output.appendingPathComponent("unpacked")
        #expect(try ChildProcess.run(["/usr/bin/dpkg-deb", "-R", package, unpacked.path]).status == 0)
        let service = try String(contentsOfFile: unpacked.appendingPathComponent("lib/systemd/system/cofferd.service").path, encoding: .utf8)
        #expect(service.contains("ExecStart=/usr/bin/cofferd --state-dir /var/lib/coffer"))
        #expect(!service.contains("/usr/local/"))
        let postinst = try String(contentsOfFile: unpacked.appendingPathComponent("DEBIAN/postinst").path, encoding: .utf8)
        #expect(postinst.contains("dpkg-statoverride --update --add root coffer-cli 2755 /usr/bin/coffer"))
        let postrm = try String(contentsOfFile: unpacked.appendingPathComponent("DEBIAN/postrm").path, encoding: .utf8)
        #expect(postrm.contains("dpkg-statoverride --remove /usr/bin/coffer"))
        for script in ["postinst", "prerm", "postrm"] {
            #expect(try ChildProcess.run(["/bin/sh", "-n", unpacked.appendingPathComponent("DEBIAN/\(script)").path]).status == 0, "\(script)")
        }
    }
}
