import Foundation

/// Runs the built `coffer` executable against a private keychain folder.
struct CLIRunner {
    let home: URL

    init() {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-cli-\(UUID().uuidString)/keychain")
    }

    struct Outcome {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("coffer")
    }

    /// Runs `coffer arguments…` with `input` on standard input (a pipe, so not a terminal).
    func run(_ arguments: [String], input: String = "", environment extra: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["COFFER_HOME"] = home.path
        environment.removeValue(forKey: "COFFER_LOG")
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: output, as: UTF8.self),
            standardError: String(decoding: errors, as: UTF8.self))
    }
}
