import Foundation
import TestProcesses

/// Runs the built `coffer` executable against a private keychain folder.
struct CLIRunner {
    let home: URL
    /// The daemon's socket, when the commands go to a daemon instead of the embedded keychain at ``home``.
    var socket: String?

    init() {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-cli-\(UUID().uuidString)/keychain")
    }

    struct Outcome {
        let status: Int32
        let standardOutput: String
        let standardError: String
        /// Standard output as bytes (a signature, a DER key).
        let standardOutputBytes: Data
    }

    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("coffer")
    }

    /// Runs `coffer arguments…` with `input` on standard input (a pipe, so not a terminal).
    func run(_ arguments: [String], input: String = "", environment extra: [String: String] = [:]) throws -> Outcome {
        try run(arguments, inputBytes: Data(input.utf8), environment: extra)
    }

    /// Runs `coffer arguments…` with `inputBytes` on standard input (a pipe; the child may stop reading early,
    /// as with an input over the limit).
    func run(_ arguments: [String], inputBytes: Data, environment extra: [String: String] = [:]) throws -> Outcome {
        let child = try ChildProcess([Self.executable.path] + arguments, environment: environment(extra), input: .pipe)
        return Self.outcome(try child.finish(writing: inputBytes))
    }

    /// Runs `coffer arguments…` with standard input read from the file at `input`.
    func run(_ arguments: [String], inputFile: URL, environment extra: [String: String] = [:]) throws -> Outcome {
        let child = try ChildProcess([Self.executable.path] + arguments, environment: environment(extra), input: .file(inputFile.path))
        return Self.outcome(try child.finish())
    }

    /// Starts `coffer arguments…` and returns at once, for a test that signals it or reads it as it runs.
    func start(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess([Self.executable.path] + arguments, environment: environment(extra), input: .null)
    }

    /// Runs the shell `script` with `$COFFER` naming the `coffer` executable: for command lines that
    /// cannot be passed as Swift strings, such as arguments that are not valid UTF-8 (`"$(printf '\\377')"`).
    func runShell(_ script: String, environment extra: [String: String] = [:]) throws -> Outcome {
        var extra = extra
        extra["COFFER"] = Self.executable.path
        let child = try ChildProcess(["/bin/sh", "-c", script], environment: environment(extra))
        return Self.outcome(try child.finish())
    }

    /// This process's environment with the keychain folder (or the daemon's socket) set, diagnostics off, no login
    /// session (so no daemon is started for one, unless `extra` names a runtime folder), and `extra` on top.
    private func environment(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        if let socket {
            environment["COFFER_SOCKET"] = socket
            environment.removeValue(forKey: "COFFER_HOME")
        } else {
            environment["COFFER_HOME"] = home.path
        }
        environment.removeValue(forKey: "COFFER_LOG")
        environment.removeValue(forKey: "XDG_RUNTIME_DIR")
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    private static func outcome(_ finished: ChildProcess.Outcome) -> Outcome {
        Outcome(
            status: finished.status, standardOutput: finished.outputText, standardError: finished.errorText,
            standardOutputBytes: finished.output)
    }
}
