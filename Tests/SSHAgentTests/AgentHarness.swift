import Foundation
import TestProcesses
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// How the agent and `coffer` reach the keychain: in their own process (`COFFER_HOME`), or through a `cofferd --user`
/// the harness starts (`COFFER_SOCKET`), which then holds the keys and makes the signatures of keys that never leave.
enum AgentTransport: String, CaseIterable, CustomTestStringConvertible {
    case embedded, daemon
    var testDescription: String { rawValue }
}

/// A `coffer ssh-agent -D` on a private socket over a keychain in a private `COFFER_HOME` (or a private `cofferd`),
/// and OpenSSH's tools pointed at it through `SSH_AUTH_SOCK`. Everything lives in one scratch folder, removed at the
/// end; the agent (and the daemon) are stopped when the harness goes away.
final class AgentHarness {
    /// The scratch folder (mode 0700): the keychain, the socket, key files, `HOME`.
    let scratch: URL
    /// The agent's socket.
    let socket: String
    /// How the keychain is reached.
    let transport: AgentTransport
    private var agent: ChildProcess?
    private var daemon: ChildProcess?

    /// What a finished program printed, and its status.
    struct Outcome {
        let status: Int32
        let output: String
        let errors: String
    }

    init(transport: AgentTransport = .embedded) throws {
        try DebianPackages.ensureInstalled(["openssh-client"])
        self.transport = transport
        // A short path: a Unix socket's path holds at most 107 bytes.
        scratch = URL(fileURLWithPath: "/tmp/coffer-ssh-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        socket = scratch.appendingPathComponent("agent.sock").path
        try Self.writePinentry(at: path("pinentry"), folder: scratch.path)
        if transport == .daemon { try startDaemon() }
        try startAgent()
    }

    deinit {
        if let agent { _ = agent.terminate() }
        if let daemon { _ = daemon.terminate() }
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Starts `cofferd --user` over the keychain folder and waits for its socket.
    private func startDaemon() throws {
        let socket = path("cofferd.sock")
        daemon = try ChildProcess(
            [Self.executable("cofferd"), "--user", "--socket", socket], environment: ["COFFER_HOME": path("keychain"), "PATH": "/usr/bin:/bin"],
            output: .null, errors: .null)
        for _ in 0..<1500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        guard FileManager.default.fileExists(atPath: socket) else { throw HarnessFailure("cofferd did not open its socket") }
    }

    /// The path of a built executable, beside the test bundle.
    static func executable(_ name: String) -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// The path of `name` in the scratch folder.
    func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    /// The environment every program runs in.
    var environment: [String: String] {
        var environment = [
            "PATH": "/usr/bin:/bin", "HOME": scratch.path, "SSH_AUTH_SOCK": socket, "COFFER_LOG": "notice", "COFFER_PINENTRY": path("pinentry"),
        ]
        switch transport {
        case .embedded: environment["COFFER_HOME"] = path("keychain")
        case .daemon: environment["COFFER_SOCKET"] = path("cofferd.sock")
        }
        return environment
    }

    /// Starts the agent and waits for its first line (`SSH_AUTH_SOCK=…`), printed once it listens.
    func startAgent() throws {
        let agent = try ChildProcess(
            [Self.executable("coffer"), "ssh-agent", "-D", "-s", "-a", socket], environment: environment, output: .pipe, errors: .null)
        self.agent = agent
        guard let line = agent.nextOutputLine(timeout: .seconds(30)), line.hasPrefix("SSH_AUTH_SOCK=") else {
            throw HarnessFailure("the agent did not announce its socket")
        }
    }

    /// Stops the agent (SIGTERM) and returns how it ended.
    @discardableResult
    func stopAgent() -> ChildProcess.Termination? {
        defer { agent = nil }
        return agent?.terminate()
    }

    /// Runs `arguments` (the first a program on `/usr/bin`, or a full path) in the harness's environment.
    func run(_ arguments: [String], input: String = "", extra: [String: String] = [:]) throws -> Outcome {
        var command = arguments
        if !command[0].hasPrefix("/") { command[0] = "/usr/bin/\(command[0])" }
        let finished = try ChildProcess.run(
            command, input: input, environment: environment.merging(extra) { $1 }, timeout: .seconds(60))
        return Outcome(status: finished.status, output: finished.outputText, errors: finished.errorText)
    }

    /// Runs `coffer arguments…`.
    func coffer(_ arguments: [String]) throws -> Outcome {
        try run([Self.executable("coffer")] + arguments)
    }

    /// Makes a key pair with `ssh-keygen -q -N ''` in the scratch folder; returns the private key's path.
    func keygen(_ name: String, type: String, bits: Int? = nil, comment: String) throws -> String {
        let file = path(name)
        var arguments = ["ssh-keygen", "-q", "-t", type, "-N", "", "-C", comment, "-f", file]
        if let bits { arguments += ["-b", String(bits)] }
        let made = try run(arguments)
        guard made.status == 0 else { throw HarnessFailure("ssh-keygen failed: \(made.errors)") }
        return file
    }

    /// The lines of `text`, sorted (the agent's listing order is the keychain's).
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).sorted()
    }

    /// Signs `message` with `ssh-keygen -Y sign` through the agent (the public key file names the key), then checks
    /// it with `ssh-keygen -Y verify` against an allowed-signers file; returns the verifier's output.
    func signAndVerify(publicKey: String, message: String = "signed through coffer ssh-agent\n") throws -> Outcome {
        let publicLine = try String(contentsOfFile: publicKey, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return try signAndVerify(with: publicKey, allowedSigner: "tester@example.com \(publicLine)", message: message)
    }

    /// Signs `message` with `ssh-keygen -Y sign -f FILE` through the agent (FILE a public key or certificate file),
    /// then checks the signature with `ssh-keygen -Y verify` against the allowed-signers line `allowedSigner` for
    /// `tester@example.com`; returns the signer's output when it fails, else the verifier's.
    func signAndVerify(with file: String, allowedSigner: String, message: String) throws -> Outcome {
        let messageFile = path("message-\(UUID().uuidString.prefix(6))")
        try Data(message.utf8).write(to: URL(fileURLWithPath: messageFile))
        let signed = try run(["ssh-keygen", "-Y", "sign", "-f", file, "-n", "file", messageFile])
        guard signed.status == 0 else { return signed }
        let allowed = path("allowed-\(UUID().uuidString.prefix(6))")
        try Data("\(allowedSigner)\n".utf8).write(to: URL(fileURLWithPath: allowed))
        return try run(
            ["ssh-keygen", "-Y", "verify", "-f", allowed, "-I", "tester@example.com", "-n", "file", "-s", messageFile + ".sig"],
            input: message)
    }
}

extension AgentHarness {
    /// A scripted pinentry for confirmations and passcodes: it logs each `SETDESC`, answers `CONFIRM` with `OK` while
    /// the file `allow-confirm` exists in `folder`, else with pinentry's cancel error, and answers `GETPIN` with the
    /// content of the file `pin` in `folder` (`CANCEL`: pinentry's cancel error; no file: an empty passcode).
    static func writePinentry(at path: String, folder: String) throws {
        let script = """
            #!/bin/sh
            echo "OK Pleased to meet you"
            while IFS= read -r line; do
              case "$line" in
                SETDESC*) printf '%s\\n' "$line" >> '\(folder)/pinentry.log'; echo OK ;;
                CONFIRM*) if [ -e '\(folder)/allow-confirm' ]; then echo OK; else echo "ERR 83886179 Operation cancelled <Pinentry>"; fi ;;
                GETPIN*) if [ ! -e '\(folder)/pin' ]; then echo OK
                  elif [ "$(cat '\(folder)/pin')" = CANCEL ]; then echo "ERR 83886179 Operation cancelled <Pinentry>"
                  else printf 'D %s\\nOK\\n' "$(cat '\(folder)/pin')"; fi ;;
                BYE*) echo OK; exit 0 ;;
                *) echo OK ;;
              esac
            done

            """
        try Data(script.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o700)
    }
}

/// A harness step that did not go as planned.
struct HarnessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
