import Foundation
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// A private PostgreSQL cluster for one test: Debian's server (`postgresql`, installed when missing), a new data
/// folder, a socket folder of its own and a port on 127.0.0.1, password authentication (SCRAM) for every
/// connection, stopped and deleted by ``stop()``.
///
/// `initdb` refuses to run as root, so when the tests run as root the cluster's files belong to the `postgres` user
/// and its programs run as that user (`runuser`); otherwise they run as the tests' own user.
public final class PostgresServer: Sendable {
    /// Why the cluster could not be started.
    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The superuser's name.
    public let superuser = "coffer_admin"
    /// The superuser's password (random).
    public let superuserPassword: String
    /// The database every cluster starts with, which the tests use.
    public let database = "postgres"
    /// The folder of the socket (`.s.PGSQL.<port>`).
    public let socketFolder: String
    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// The cluster's folder: data, socket and log.
    private let folder: String
    /// PostgreSQL's programs (`/usr/lib/postgresql/N/bin`).
    private let programs: String
    /// The prefix that runs a program as the cluster's owner.
    private let asOwner: [String]

    /// The Unix socket's path.
    public var unixSocketPath: String { "\(socketFolder)/.s.PGSQL.\(port)" }

    /// Whether the server takes TLS connections (``init(tls:)``).
    public let servesTLS: Bool

    /// Starts a new cluster, waiting until it accepts connections. With `tls`, it also takes TLS connections on TCP,
    /// presenting that certificate (PEM) and key (PEM).
    public init(tls: (certificatePEM: String, keyPEM: String)? = nil) throws {
        try DebianPackages.ensureInstalled(["postgresql"])
        programs = try Self.programFolder()
        var random = SystemRandomNumberGenerator()
        superuserPassword = (0..<24).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &random)) }.joined()
        // Short: a Unix socket's path must fit in 107 bytes.
        folder = "/tmp/coffer-pg-\(UUID().uuidString.prefix(8).lowercased())"
        socketFolder = folder + "/socket"
        port = try LoopbackPort.free()
        let owner = geteuid() == 0 ? try Self.postgresUser() : nil
        asOwner = owner == nil ? [] : ["/usr/sbin/runuser", "-u", "postgres", "--"]
        servesTLS = tls != nil
        do {
            try start(owner: owner, tls: tls)
        } catch {
            stop()
            throw error
        }
    }

    /// Stops the cluster at once (no checkpoint) and deletes its folder.
    public func stop() {
        if FileManager.default.fileExists(atPath: folder + "/data/postmaster.pid") {
            _ = try? ChildProcess.run(asOwner + ["\(programs)/pg_ctl", "-D", folder + "/data", "-m", "immediate", "-w", "stop"], timeout: .seconds(60))
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Stops the server at once, as a crash or a cut network would (no checkpoint; its data stays for ``resume()``).
    public func pause() throws {
        let stopped = try ChildProcess.run(asOwner + ["\(programs)/pg_ctl", "-D", folder + "/data", "-m", "fast", "-w", "stop"], timeout: .seconds(60))
        guard stopped.status == 0 else { throw StartFailure(description: "pg_ctl stop failed: \(stopped.errorText.suffix(1_000))") }
    }

    /// Kills the server and every process it started with SIGKILL, as a crash would: transactions in flight die with
    /// it, and ``resume()`` recovers from the write-ahead log.
    public func crash() throws {
        guard let pidFile = try? String(contentsOfFile: folder + "/data/postmaster.pid", encoding: .utf8),
            let postmaster = pidFile.split(separator: "\n").first.flatMap({ Int32($0) })
        else { throw StartFailure(description: "the server is not running") }
        let victims = [postmaster] + Self.children(of: postmaster)
        // Each is killed on its own: a backend may exit between the listing and the signal ("No such process"),
        // which must not leave the others running.
        let script = victims.map { "kill -KILL \($0) 2>/dev/null" }.joined(separator: "; ") + "; true"
        _ = try ChildProcess.run(asOwner + ["/bin/sh", "-c", script])
        for _ in 0..<1_000 where victims.contains(where: { Foundation.kill($0, 0) == 0 || errno == EPERM }) { usleep(10_000) }
    }

    /// The processes whose parent is `parent`, from `/proc`.
    private static func children(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After the command's closing parenthesis: state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent ? pid : nil
        }
    }

    /// Starts the server again after ``pause()`` or ``crash()``, on the same socket and port, waiting until it accepts connections.
    public func resume() throws {
        let options = serverOptions
        let started = try ChildProcess.run(
            asOwner + ["\(programs)/pg_ctl", "-D", folder + "/data", "-l", folder + "/log", "-o", options, "-w", "-t", "120", "start"],
            timeout: .seconds(180))
        guard started.status == 0 else { throw StartFailure(description: "pg_ctl start failed: \(started.errorText.suffix(1_000))") }
    }

    /// What the server wrote to its log (for failure messages).
    public var log: String { (try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? "" }

    /// The server's options: its socket folder, the loopback address and port, and TLS when it serves it.
    private var serverOptions: String {
        "-k \(socketFolder) -c listen_addresses=127.0.0.1 -p \(port)" + (servesTLS ? " -c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key" : "")
    }

    private func start(owner: (uid: uid_t, gid: gid_t)?, tls: (certificatePEM: String, keyPEM: String)?) throws {
        for path in [folder, socketFolder] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            if let owner { chown(path, owner.uid, owner.gid) }
        }
        let passwordFile = folder + "/superuser-password"
        guard FileManager.default.createFile(atPath: passwordFile, contents: Data(superuserPassword.utf8), attributes: [.posixPermissions: 0o600])
        else { throw StartFailure(description: "cannot write \(passwordFile)") }
        if let owner { chown(passwordFile, owner.uid, owner.gid) }
        defer { try? FileManager.default.removeItem(atPath: passwordFile) }
        let initdb = try ChildProcess.run(
            asOwner + [
                "\(programs)/initdb", "-D", folder + "/data", "-U", superuser, "--pwfile=\(passwordFile)", "--auth=scram-sha-256",
                "--encoding=UTF8", "--locale=C", "--no-instructions",
            ], timeout: .seconds(300))
        guard initdb.status == 0 else { throw StartFailure(description: "initdb failed: \(initdb.errorText.suffix(2_000))") }
        if let tls {
            for (name, contents) in [("server.crt", tls.certificatePEM), ("server.key", tls.keyPEM)] {
                let path = folder + "/data/" + name
                guard FileManager.default.createFile(atPath: path, contents: Data(contents.utf8), attributes: [.posixPermissions: 0o600]) else {
                    throw StartFailure(description: "cannot write \(path)")
                }
                if let owner { chown(path, owner.uid, owner.gid) }
            }
        }
        let options = serverOptions
        let started = try ChildProcess.run(
            asOwner + ["\(programs)/pg_ctl", "-D", folder + "/data", "-l", folder + "/log", "-o", options, "-w", "-t", "120", "start"],
            timeout: .seconds(180))
        guard started.status == 0 else { throw StartFailure(description: "pg_ctl start failed: \(started.errorText.suffix(1_000)) \(log.suffix(2_000))") }
    }

    /// The newest installed server's programs.
    private static func programFolder() throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        guard let newest = versions.compactMap(Int.init).max(), FileManager.default.isExecutableFile(atPath: "\(root)/\(newest)/bin/initdb")
        else { throw StartFailure(description: "no PostgreSQL server under \(root) (apt-get install postgresql)") }
        return "\(root)/\(newest)/bin"
    }

    /// The `postgres` user Debian's package creates, which runs the cluster when the tests are root.
    private static func postgresUser() throws -> (uid: uid_t, gid: gid_t) {
        guard let entry = getpwnam("postgres") else { throw StartFailure(description: "no postgres user (Debian's postgresql package creates it)") }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }
}
