import Foundation
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// Where a helper's keychain is: embedded in a private `COFFER_HOME`, or behind a per-user `cofferd` reached
/// by `COFFER_SOCKET`.
enum HelperTransport: String, CaseIterable, CustomTestStringConvertible {
    case embedded, daemon
    var testDescription: String { rawValue }
}

/// Runs the built credential helpers (and git) against a fresh keychain of one transport.
final class HelperRunner {
    /// A scratch folder: the keychain, the daemon's socket, git's `HOME`.
    let scratch: URL
    private let home: URL
    private var socket: String?
    private var daemon: ChildProcess?

    /// What a finished program printed, and its status.
    struct Outcome {
        let status: Int32
        let output: String
        let errors: String
    }

    init(_ transport: HelperTransport) throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-helpers-\(UUID().uuidString)")
        home = scratch.appendingPathComponent("keychain")
        try FileManager.default.createDirectory(
            at: scratch.appendingPathComponent("home"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        guard transport == .daemon else { return }
        let socket = scratch.appendingPathComponent("socket").path
        daemon = try ChildProcess(
            [Self.executable("cofferd"), "--user", "--socket", socket], environment: ["COFFER_HOME": home.path, "PATH": "/usr/bin:/bin"],
            output: .null, errors: .null)
        for _ in 0..<1500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        self.socket = socket
    }

    deinit {
        _ = daemon?.terminate()
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The path of a built executable, beside the test bundle.
    static func executable(_ name: String) -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Runs `git-credential-coffer action` with `input`.
    func git(_ action: String, _ input: String) throws -> Outcome {
        try run([Self.executable("git-credential-coffer"), action], input)
    }

    /// Runs `docker-credential-coffer arguments…` with `input`.
    func docker(_ arguments: [String], _ input: String = "") throws -> Outcome {
        try run([Self.executable("docker-credential-coffer")] + arguments, input)
    }

    /// Runs `git -c credential.helper=<the built helper> credential action` with `input`, with no system
    /// configuration, a private `HOME` and no terminal prompts.
    func gitCredential(_ action: String, _ input: String) throws -> Outcome {
        try run(
            ["/usr/bin/git", "-c", "credential.helper=\(Self.executable("git-credential-coffer"))", "credential", action], input,
            extra: [
                "GIT_CONFIG_NOSYSTEM": "1", "HOME": scratch.appendingPathComponent("home").path, "GIT_TERMINAL_PROMPT": "0",
            ])
    }

    private func run(_ arguments: [String], _ input: String, extra: [String: String] = [:]) throws -> Outcome {
        var environment = ["PATH": "/usr/bin:/bin"]
        if let socket { environment["COFFER_SOCKET"] = socket } else { environment["COFFER_HOME"] = home.path }
        for (key, value) in extra { environment[key] = value }
        let finished = try ChildProcess.run(arguments, input: input, environment: environment, timeout: .seconds(60))
        return Outcome(status: finished.status, output: finished.outputText, errors: finished.errorText)
    }
}
