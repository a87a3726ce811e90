import Foundation
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// A real login: `ssh -o IdentityAgent=…` to a private `sshd` (Debian's openssh-server, installed when missing) on
/// 127.0.0.1, which knows only the keys in its own authorized_keys file.
@Suite(.timeLimit(.minutes(5)))
struct AgentLoginTests {
    @Test func sshLogsInWithAnAddedRSAKeyAndAKeyThatNeverLeaves() throws {
        try DebianPackages.ensureInstalled(["openssh-server"])
        let harness = try AgentHarness()
        let rsa = try harness.keygen("rsa", type: "rsa", bits: 3072, comment: "rsa-login")
        #expect(try harness.run(["ssh-add", rsa]).status == 0)
        try FileManager.default.removeItem(atPath: rsa)
        let enclave = try harness.coffer(["create-key", "--ssh", "-l", "enclave-login"])
        #expect(enclave.status == 0, "\(enclave.errors)")

        for authorized in [try String(contentsOfFile: rsa + ".pub", encoding: .utf8), enclave.output] {
            let server = try PrivateSSHServer(harness: harness, authorizedKey: authorized)
            let login = try harness.run(
                [
                    "ssh", "-F", "/dev/null", "-o", "IdentityAgent=\(harness.socket)", "-o", "BatchMode=yes",
                    "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
                    "-p", String(server.port), "\(server.user)@127.0.0.1", "echo logged in",
                ],
                extra: ["SSH_AUTH_SOCK": harness.path("no-such-socket")])
            #expect(login.status == 0, "\(login.errors)\n\((try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? "")")
            #expect(login.output == "logged in\n")
        }
    }
}

extension AgentLoginTests {
    @Test(arguments: AgentTransport.allCases)
    func sshLogsInWithAnAddedEd25519KeyAndAnEd25519KeyThatNeverLeaves(transport: AgentTransport) throws {
        try DebianPackages.ensureInstalled(["openssh-server"])
        let harness = try AgentHarness(transport: transport)
        let added = try harness.keygen("ed", type: "ed25519", comment: "ed25519-login")
        #expect(try harness.run(["ssh-add", added]).status == 0)
        try FileManager.default.removeItem(atPath: added)
        let kept = try harness.coffer(["create-key", "--ssh", "-t", "ed25519", "-l", "kept-ed25519-login"])
        #expect(kept.status == 0, "\(kept.errors)")

        for authorized in [try String(contentsOfFile: added + ".pub", encoding: .utf8), kept.output] {
            let server = try PrivateSSHServer(harness: harness, authorizedKey: authorized)
            let login = try harness.run(server.loginCommand(agent: harness.socket), extra: ["SSH_AUTH_SOCK": harness.path("no-such-socket")])
            #expect(login.status == 0, "\(login.errors)\n\((try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? "")")
            #expect(login.output == "logged in\n")
            let log = (try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? ""
            #expect(log.contains("Accepted publickey for \(server.user) from 127.0.0.1"), "\(log)")
            #expect(log.contains("ED25519 SHA256:"), "\(log)")
        }
    }
}

extension PrivateSSHServer {
    /// `ssh` to this server with the agent at `agent` only (no configuration, no known hosts), running `echo logged in`.
    func loginCommand(agent: String) -> [String] {
        [
            "ssh", "-F", "/dev/null", "-o", "IdentityAgent=\(agent)", "-o", "BatchMode=yes",
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
            "-p", String(port), "\(user)@127.0.0.1", "echo logged in",
        ]
    }
}

/// `sshd -D -e` on 127.0.0.1 with a host key, configuration and authorized_keys of its own in the harness's folder;
/// stopped when it goes away.
final class PrivateSSHServer {
    let port: Int
    let user: String
    /// The server's host key as a known_hosts line has it (`ecdsa-sha2-nistp256 BASE64`).
    let hostPublicKey: String
    /// sshd's log (`-e`), for a failing test's message.
    let logPath: String
    private let process: ChildProcess

    /// The home folder sessions get (`SetEnv HOME`), whose `.ssh/authorized_keys` the server also reads; nil when
    /// sessions keep the user's own.
    let home: String?

    /// A server that accepts `authorizedKey`; with `privateHome`, its sessions' `HOME` is a folder of its own, so that
    /// `ssh-copy-id` writes there and never to the user's real `~/.ssh`. With `trustedUserAuthority` (a public key file)
    /// it also accepts that authority's user certificates; with `hostAuthority` (a private key file) its host key has a
    /// certificate of that authority for the name 127.0.0.1.
    init(
        harness: AgentHarness, authorizedKey: String, privateHome: Bool = false, trustedUserAuthority: String? = nil,
        hostAuthority: String? = nil
    ) throws {
        let folder = harness.path("sshd-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let hostKey = folder + "/host_key"
        guard try harness.run(["ssh-keygen", "-q", "-t", "ecdsa", "-N", "", "-f", hostKey]).status == 0 else {
            throw HarnessFailure("no host key")
        }
        hostPublicKey = try String(contentsOfFile: hostKey + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        var certificates = ""
        if let hostAuthority {
            let signed = try harness.run(["ssh-keygen", "-q", "-s", hostAuthority, "-I", "test-host", "-h", "-n", "127.0.0.1", hostKey + ".pub"])
            guard signed.status == 0 else { throw HarnessFailure("no host certificate: \(signed.errors)") }
            certificates += "HostCertificate \(hostKey)-cert.pub\n"
        }
        if let trustedUserAuthority { certificates += "TrustedUserCAKeys \(trustedUserAuthority)\n" }
        try Data(authorizedKey.utf8).write(to: URL(fileURLWithPath: folder + "/authorized_keys"))
        port = try LoopbackPort.free()
        user = String(cString: getpwuid(getuid()).pointee.pw_name)
        home = privateHome ? folder + "/home" : nil
        var authorizedFiles = folder + "/authorized_keys"
        var sessionEnvironment = ""
        if let home {
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            authorizedFiles += " \(home)/.ssh/authorized_keys"
            sessionEnvironment = "SetEnv HOME=\(home)\n"
        }
        let configuration = """
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(hostKey)
            AuthorizedKeysFile \(authorizedFiles)
            \(sessionEnvironment)\(certificates)PidFile none
            StrictModes no
            UsePAM no
            PubkeyAuthentication yes
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            PermitRootLogin prohibit-password

            """
        try Data(configuration.utf8).write(to: URL(fileURLWithPath: folder + "/sshd_config"))
        // As root, sshd needs its privilege separation folder, which the package's service would make.
        if getuid() == 0 { mkdir("/run/sshd", 0o755) }
        logPath = folder + "/sshd.log"
        process = try ChildProcess(
            ["/bin/sh", "-c", "exec /usr/sbin/sshd -D -e -f \"$1\" 2>\"$2\"", "sh", folder + "/sshd_config", logPath],
            output: .null, errors: .null)
        var listening = false
        for _ in 0..<500 {
            // Each look is a connection sshd counts (MaxStartups), so it stops at the first that is accepted.
            listening = Self.accepts(port)
            if listening { break }
            usleep(10_000)
        }
        guard listening else { throw HarnessFailure("sshd did not listen on port \(port)") }
    }

    deinit { _ = process.terminate() }

    /// Whether something accepts connections on 127.0.0.1:`port`.
    private static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
