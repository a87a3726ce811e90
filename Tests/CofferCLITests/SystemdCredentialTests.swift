import Foundation
import TestProcesses
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// cofferd's credentials socket, reached as systemd reaches it for `LoadCredential=ID:SOCKET`: a stream connection
/// from an abstract address `\0RANDOM/unit/UNIT/ID`, read to its end. A registered unit gets the generic password
/// named by the credential among its access groups, and nothing else; every answer is in the audit journal.
@Suite("systemd credentials from cofferd", .serialized, .timeLimit(.minutes(10)))
struct SystemdCredentialTests {
    /// What systemd does: bind to the unit's abstract address, connect, read until the daemon closes.
    static func load(_ credential: String, unit: String, from socket: String, address: String? = nil) throws -> Data {
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let name = address ?? "\(String(UInt64.random(in: 0...UInt64.max), radix: 16))/unit/\(unit)/\(credential)"
        if !name.isEmpty {
            var local = sockaddr_un()
            local.sun_family = sa_family_t(AF_UNIX)
            let bytes = [UInt8(0)] + Array(name.utf8)
            withUnsafeMutableBytes(of: &local.sun_path) { path in path.copyBytes(from: bytes) }
            let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + bytes.count)
            let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
            try #require(bound == 0, "bind: \(errno)")
        }
        var remote = sockaddr_un()
        remote.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &remote.sun_path) { path in path.copyBytes(from: Array(socket.utf8) + [0]) }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(connected == 0, "connect: \(errno)")
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return received
    }

    /// A `cofferd --user` for `cli`'s keychain, its socket beside the keychain folder, started once its credentials
    /// socket is there.
    static func startDaemon(for cli: CLIRunner) throws -> (daemon: ChildProcess, socket: String, credentials: String) {
        let root = cli.home.deletingLastPathComponent()
        let socket = root.appendingPathComponent("socket").path
        let credentials = root.appendingPathComponent("credentials.sock").path
        let cofferd = CLIRunner.executable.deletingLastPathComponent().appendingPathComponent("cofferd").path
        let daemon = try ChildProcess(
            [cofferd, "--user", "--socket", socket], environment: ["COFFER_HOME": cli.home.path, "PATH": "/usr/bin:/bin"], output: .null,
            errors: .null)
        for _ in 0..<1500 where !FileManager.default.fileExists(atPath: credentials) { usleep(10_000) }
        return (daemon, socket, credentials)
    }

    @Test func aRegisteredUnitGetsItsOwnCredentialAndNothingElse() throws {
        let cli = CLIRunner()
        let root = cli.home.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        let groups = ["COFFER_ACCESS_GROUPS": "TEAM.backup"]
        #expect(try cli.run(["add-generic-password", "-s", "db-password", "-a", "backup", "-w"], input: "UNIT-SECRET\n", environment: groups).status == 0)
        let other = ["COFFER_ACCESS_GROUPS": "TEAM.web"]
        #expect(try cli.run(["add-generic-password", "-s", "web-token", "-a", "web", "-w"], input: "OTHER-SECRET\n", environment: other).status == 0)
        #expect(try cli.run(["passcode", "set"], input: "unit-code\n").status == 0)

        let (daemon, socket, credentials) = try Self.startDaemon(for: cli)
        defer { _ = daemon.terminate() }
        var viaDaemon = cli
        viaDaemon.socket = socket
        #expect(try viaDaemon.run(["unlock"], input: "unit-code\n").status == 0)
        let added = try viaDaemon.run(["apps", "add", "--unit", "backup.service", "--app-id", "TEAM.backup", "--group", "TEAM.backup"], input: "unit-code\n")
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.standardOutput.contains("backup.service") && added.standardOutput.contains("mode: systemd unit"))
        let mode = try FileManager.default.attributesOfItem(atPath: credentials)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        #expect(try Self.load("db-password", unit: "backup.service", from: credentials) == Data("UNIT-SECRET".utf8))
        // Another unit's item, an unregistered unit, an address that is not systemd's, a credential that is no item.
        #expect(try Self.load("web-token", unit: "backup.service", from: credentials).isEmpty)
        #expect(try Self.load("db-password", unit: "web.service", from: credentials).isEmpty)
        #expect(try Self.load("db-password", unit: "backup.service", from: credentials, address: "").isEmpty)
        #expect(try Self.load("db-password", unit: "backup.service", from: credentials, address: "x/service/backup.service/db-password").isEmpty)
        #expect(try Self.load("missing", unit: "backup.service", from: credentials).isEmpty)

        // The unit's read is in the journal, by the unit (searches that return no secret are not recorded).
        let shown = try viaDaemon.run(["audit", "show", "--json"], input: "unit-code\n")
        let reads = shown.standardOutput.split(separator: "\n").compactMap { line -> [String: Any]? in
            guard let record = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let caller = record["caller"] as? [String: Any], caller["kind"] as? String == "systemd unit"
            else { return nil }
            return record
        }
        #expect(reads.count == 1, "\(shown.standardOutput)")
        #expect(reads.first?["event"] as? String == "secret-read" && (reads.first?["caller"] as? [String: Any])?["program"] as? String == "backup.service")

        // Removed, the unit gets nothing.
        #expect(try viaDaemon.run(["apps", "remove", "backup.service"], input: "unit-code\n").status == 0)
        #expect(try Self.load("db-password", unit: "backup.service", from: credentials).isEmpty)
        let badUnit = try viaDaemon.run(["apps", "add", "--unit", "no/such.service", "--app-id", "TEAM.x"], input: "unit-code\n")
        #expect(badUnit.status != 0 && badUnit.standardError.contains("is not a systemd unit's name"), "\(badUnit.standardError)")
    }

    @Test func anotherUserCannotReachTheSocket() throws {
        let cli = CLIRunner()
        let root = cli.home.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        chmod(root.path, 0o755)
        let (daemon, _, credentials) = try Self.startDaemon(for: cli)
        defer { _ = daemon.terminate() }
        let attributes = try FileManager.default.attributesOfItem(atPath: credentials)
        #expect(attributes[.posixPermissions] as? Int == 0o600 && (attributes[.ownerAccountID] as? NSNumber)?.uint32Value == getuid())
        // Only root can take another uid to try; as any user, the file's mode above is what keeps others out.
        guard getuid() == 0 else { return }
        // As nobody, with systemd's address: the socket (0600) does not even accept the connection.
        let probe = """
            socket, sys = __import__("socket"), __import__("sys")
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind("\\0abc/unit/backup.service/db-password")
            try:
                s.connect(sys.argv[1])
            except PermissionError:
                print("refused")
            """
        let run = try ChildProcess.run(
            ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", probe, credentials])
        #expect(run.outputText == "refused\n", "\(run.outputText) \(run.errorText)")
    }
}
