import Foundation
import Testing
import TestProcesses

@testable import SSHAgent

#if canImport(Glibc)
import Glibc
#endif

/// OpenSSH certificates through the agent, with OpenSSH's own tools: `ssh-add` of a key with its `-cert.pub`, the
/// certificate listed, signing with it (`ssh-keygen -Y sign` of the certificate), a login to an `sshd` that trusts
/// only the authority, the certificate removed alone, and `@cert-authority` destination constraints.
@Suite(.timeLimit(.minutes(5)))
struct AgentCertificateTests {
    /// A user key `name` of `type`, and its certificate from a new Ed25519 authority, for the principals given.
    private func certifiedKey(
        _ harness: AgentHarness, _ name: String, type: String, bits: Int? = nil, principals: String
    ) throws -> (key: String, authority: String) {
        let authority = try harness.keygen("\(name)-ca", type: "ed25519", comment: "\(name) authority")
        let key = try harness.keygen(name, type: type, bits: bits, comment: "\(name)@test")
        let signed = try harness.run(["ssh-keygen", "-q", "-s", authority, "-I", "\(name)-id", "-n", principals, key + ".pub"])
        #expect(signed.status == 0, "\(signed.errors)")
        return (key, authority)
    }

    /// The first two fields (type and base64) of each line of `text`, sorted.
    private func keyFields(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") }.sorted()
    }

    @Test(arguments: [("ed25519", 256), ("ecdsa", 256), ("ecdsa", 384), ("ecdsa", 521), ("rsa", 3072)])
    func aCertificateIsAddedListedUsedAndRemovedAlone(type: String, bits: Int) throws {
        let harness = try AgentHarness()
        let (key, _) = try certifiedKey(harness, "user", type: type, bits: bits, principals: "tester@example.com")
        let added = try harness.run(["ssh-add", key])
        #expect(added.status == 0, "\(added.errors)")
        #expect(added.errors.contains("Certificate added"), "\(added.errors)")
        try FileManager.default.removeItem(atPath: key)

        let listed = try harness.run(["ssh-add", "-L"]).output
        let files = try String(contentsOfFile: key + ".pub", encoding: .utf8) + String(contentsOfFile: key + "-cert.pub", encoding: .utf8)
        #expect(keyFields(listed) == keyFields(files))
        let fingerprints = try harness.run(["ssh-add", "-l"]).output
        #expect(fingerprints.contains("-CERT)"), "\(fingerprints)")

        // A signature made with the certificate names it, and verifies against the authority.
        let verified = try harness.signAndVerify(certificate: key + "-cert.pub", authority: harness.path("user-ca.pub"))
        #expect(verified.status == 0, "\(verified.errors)")

        // Removing the certificate leaves the key; the key still signs, the certificate no longer does.
        let removed = try harness.run(["ssh-add", "-d", key + "-cert.pub"])
        #expect(removed.status == 0, "\(removed.errors)")
        #expect(keyFields(try harness.run(["ssh-add", "-L"]).output) == keyFields(try String(contentsOfFile: key + ".pub", encoding: .utf8)))
        #expect(try harness.signAndVerify(publicKey: key + ".pub").status == 0)
        #expect(try harness.signAndVerify(certificate: key + "-cert.pub", authority: harness.path("user-ca.pub")).status != 0)
    }

    @Test(arguments: AgentTransport.allCases)
    func sshLogsInWithACertificateToAServerThatTrustsOnlyItsAuthority(transport: AgentTransport) throws {
        try DebianPackages.ensureInstalled(["openssh-server"])
        let harness = try AgentHarness(transport: transport)
        let user = String(cString: getpwuid(getuid()).pointee.pw_name)
        let (key, authority) = try certifiedKey(harness, "login", type: "ed25519", principals: user)
        #expect(try harness.run(["ssh-add", key]).status == 0)
        try FileManager.default.removeItem(atPath: key)
        // The server has no authorized keys: only a certificate of its trusted authority logs in.
        let server = try PrivateSSHServer(harness: harness, authorizedKey: "", trustedUserAuthority: authority + ".pub")
        let login = try harness.run(server.loginCommand(agent: harness.socket), extra: ["SSH_AUTH_SOCK": harness.path("no-such-socket")])
        let log = (try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? ""
        #expect(login.status == 0, "\(login.errors)\n\(log)")
        #expect(login.output == "logged in\n")
        #expect(log.contains("Accepted publickey for \(user)") && log.contains("ID login-id"), "\(log)")
        // Without the certificate, the bare key is refused.
        #expect(try harness.run(["ssh-add", "-d", key + "-cert.pub"]).status == 0)
        let refused = try harness.run(server.loginCommand(agent: harness.socket), extra: ["SSH_AUTH_SOCK": harness.path("no-such-socket")])
        #expect(refused.status != 0)
    }

    @Test func destinationConstraintsTrustAHostCertificateOfTheirAuthority() throws {
        try DebianPackages.ensureInstalled(["openssh-server"])
        let harness = try AgentHarness()
        let hostAuthority = try harness.keygen("host-ca", type: "ed25519", comment: "host authority")
        let otherAuthority = try harness.keygen("other-ca", type: "ed25519", comment: "another authority")
        let key = try harness.keygen("user", type: "ed25519", comment: "constrained")
        let server = try PrivateSSHServer(
            harness: harness, authorizedKey: try String(contentsOfFile: key + ".pub", encoding: .utf8), hostAuthority: hostAuthority)
        func knownHosts(_ name: String, authority: String) throws -> String {
            let file = harness.path(name)
            let line = "@cert-authority * " + (try String(contentsOfFile: authority + ".pub", encoding: .utf8))
            try Data(line.utf8).write(to: URL(fileURLWithPath: file))
            return file
        }
        let trusted = try knownHosts("known-trusted", authority: hostAuthority)
        let other = try knownHosts("known-other", authority: otherAuthority)
        func login() throws -> AgentHarness.Outcome {
            try harness.run(
                [
                    "ssh", "-F", "/dev/null", "-o", "IdentityAgent=\(harness.socket)", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes",
                    "-o", "UserKnownHostsFile=\(trusted)", "-o", "GlobalKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
                    "-p", String(server.port), "\(server.user)@127.0.0.1", "echo logged in",
                ],
                extra: ["SSH_AUTH_SOCK": harness.path("no-such-socket")])
        }
        // Constrained to hosts whose certificate the host authority signed: the server's is, so the login works.
        let added = try harness.run(["ssh-add", "-H", trusted, "-h", "127.0.0.1", key])
        #expect(added.status == 0, "\(added.errors)")
        let allowed = try login()
        #expect(allowed.status == 0, "\(allowed.errors)\n\((try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? "")")
        // Constrained to another authority's hosts: the agent does not offer the key to this server.
        #expect(try harness.run(["ssh-add", "-D"]).status == 0)
        #expect(try harness.run(["ssh-add", "-H", other, "-h", "127.0.0.1", key]).status == 0)
        #expect(try login().status != 0)
    }

    @Test func aCertificateWhoseAuthoritySignatureFailsOrOfAnotherKeyIsRefused() throws {
        let harness = try AgentHarness()
        let (key, _) = try certifiedKey(harness, "user", type: "ed25519", principals: "tester@example.com")
        let certificateLine = try String(contentsOfFile: key + "-cert.pub", encoding: .utf8).split(separator: " ")
        let blob = try #require(Data(base64Encoded: String(certificateLine[1])))
        let certificate = try #require(SSHCertificate(blob: blob))
        #expect(certificate.isSignedByItsAuthority)
        #expect(certificate.kind == .user && certificate.principals == ["tester@example.com"] && certificate.keyType == "ssh-ed25519")
        var tampered = blob
        tampered[tampered.count - 10] ^= 1
        #expect(SSHCertificate(blob: tampered)?.isSignedByItsAuthority == false)

        let secret = try #require(Self.ed25519Secret(privateKeyFile: key))
        let otherSecret = try #require(Self.ed25519Secret(privateKeyFile: try harness.keygen("other", type: "ed25519", comment: "other")))
        let client = try RawAgentClient(path: harness.socket)
        func add(certificate: Data, secret: Data) throws -> Data {
            var message = SSHWireWriter()
            message.byte(AgentMessageNumber.addIdentity)
            message.text("ssh-ed25519-cert-v01@openssh.com")
            message.string(certificate)
            message.string(secret.suffix(32))
            message.string(secret)
            message.text("comment")
            return try client.request(message.bytes)
        }
        // Refused as OpenSSH's agent refuses them, with the connection kept.
        #expect(try add(certificate: tampered, secret: secret) == Data([AgentMessageNumber.failure]))
        #expect(try add(certificate: blob, secret: otherSecret) == Data([AgentMessageNumber.failure]))
        #expect(try client.request(Data([11])) == Data([AgentMessageNumber.identitiesAnswer, 0, 0, 0, 0]))
        #expect(try add(certificate: blob, secret: secret) == Data([AgentMessageNumber.success]))
        let listing = try client.request(Data([11]))
        #expect(listing.prefix(5) == Data([AgentMessageNumber.identitiesAnswer, 0, 0, 0, 1]))
    }

    @Test func aHostCertificateMatchesACertificateAuthorityHopOnlyWhenValidForTheHost() throws {
        let harness = try AgentHarness()
        let authority = try harness.keygen("host-ca", type: "ed25519", comment: "host authority")
        let other = try harness.keygen("other-ca", type: "ed25519", comment: "another authority")
        let hostKey = try harness.keygen("host", type: "ecdsa", comment: "host")
        func certificate(_ name: String, signer: String, options: [String]) throws -> Data {
            let copy = harness.path("cert-\(name).pub")
            try FileManager.default.copyItem(atPath: hostKey + ".pub", toPath: copy)
            let signed = try harness.run(["ssh-keygen", "-q", "-s", signer, "-I", name] + options + [copy])
            #expect(signed.status == 0, "\(signed.errors)")
            let line = try String(contentsOfFile: harness.path("cert-\(name)-cert.pub"), encoding: .utf8).split(separator: " ")
            return try #require(Data(base64Encoded: String(line[1])))
        }
        func blob(_ publicFile: String) throws -> Data {
            try #require(Data(base64Encoded: String(try String(contentsOfFile: publicFile, encoding: .utf8).split(separator: " ")[1])))
        }
        let hop = DestinationHop(
            user: nil, hostname: "host-a.example", keys: [.init(blob: try blob(authority + ".pub"), isCertificateAuthority: true)])
        let now = UInt64(Date().timeIntervalSince1970)
        let valid = try certificate("valid", signer: authority, options: ["-h", "-n", "host-a.example,host-b.example"])
        #expect(hop.matches(hostKey: valid, at: now))
        #expect(try #require(SSHCertificate(blob: valid)).kind == .host)
        let wildcard = try certificate("wildcard", signer: authority, options: ["-h", "-n", "*.example"])
        #expect(hop.matches(hostKey: wildcard, at: now))
        // Another name, another authority, a user certificate, an expired one, the plain key: none matches.
        #expect(!hop.matches(hostKey: try certificate("other-name", signer: authority, options: ["-h", "-n", "host-c.example"]), at: now))
        #expect(!hop.matches(hostKey: try certificate("other-ca", signer: other, options: ["-h", "-n", "host-a.example"]), at: now))
        #expect(!hop.matches(hostKey: try certificate("user", signer: authority, options: ["-n", "host-a.example"]), at: now))
        #expect(
            !hop.matches(hostKey: try certificate("expired", signer: authority, options: ["-h", "-n", "host-a.example", "-V", "19840101:19850101"]), at: now))
        #expect(!hop.matches(hostKey: try blob(hostKey + ".pub"), at: now))
        // A certificate whose signature was altered is not trusted.
        var tampered = valid
        tampered[tampered.count - 5] ^= 1
        #expect(!hop.matches(hostKey: tampered, at: now))
    }

    /// The 64-byte secret (seed, then public point) of an unencrypted OpenSSH Ed25519 private key file (PROTOCOL.key).
    static func ed25519Secret(privateKeyFile path: String) -> Data? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let bytes = Data(base64Encoded: body) else { return nil }
        var reader = SSHWireReader(bytes.dropFirst("openssh-key-v1\0".utf8.count))
        guard (try? reader.text()) == "none", (try? reader.text()) == "none", (try? reader.string()) != nil,
            (try? reader.uint32()) == 1, (try? reader.string()) != nil, let privatePart = try? reader.string()
        else { return nil }
        var inner = SSHWireReader(privatePart)
        guard let first = try? inner.uint32(), (try? inner.uint32()) == first, (try? inner.text()) == "ssh-ed25519",
            (try? inner.string()) != nil, let secret = try? inner.string(), secret.count == 64
        else { return nil }
        return Data(secret)
    }
}

extension AgentHarness {
    /// Signs `message` with `ssh-keygen -Y sign -f CERTIFICATE` through the agent, then verifies it against an
    /// allowed-signers line trusting `authority` (`cert-authority`) for `tester@example.com`.
    func signAndVerify(certificate: String, authority: String, message: String = "signed with a certificate\n") throws -> Outcome {
        let authorityLine = try String(contentsOfFile: authority, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return try signAndVerify(with: certificate, allowedSigner: "tester@example.com cert-authority \(authorityLine)", message: message)
    }
}
