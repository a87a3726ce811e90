import Foundation

#if canImport(Glibc)
import Glibc
#endif

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
        try run(arguments, inputBytes: Data(input.utf8), environment: extra)
    }

    /// Runs `coffer arguments…` with `inputBytes` on standard input (a pipe, written by another thread so
    /// that a large input cannot block the test).
    func run(_ arguments: [String], inputBytes: Data, environment extra: [String: String] = [:]) throws -> Outcome {
        let stdin = Pipe()
        let process = makeProcess(Self.executable, arguments, environment: extra, input: stdin)
        let writer = stdin.fileHandleForWriting
        // The child may stop reading early (an input over the limit): the write then fails with EPIPE,
        // which must not raise SIGPIPE in the test process.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            inputBytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(writer.fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
            try? writer.close()
            finished.signal()
        }
        defer { finished.wait() }
        return try collect(process)
    }

    /// Runs `coffer arguments…` with standard input read from the file at `input`.
    func run(_ arguments: [String], inputFile: URL, environment extra: [String: String] = [:]) throws -> Outcome {
        let process = makeProcess(Self.executable, arguments, environment: extra, input: try FileHandle(forReadingFrom: inputFile))
        try process.run()
        return try collect(process)
    }

    /// Runs the shell `script` with `$COFFER` naming the `coffer` executable: for command lines that
    /// `Process` cannot express, such as arguments that are not valid UTF-8 (`"$(printf '\\377')"`).
    func runShell(_ script: String, environment extra: [String: String] = [:]) throws -> Outcome {
        var environment = extra
        environment["COFFER"] = Self.executable.path
        let process = makeProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script], environment: environment, input: FileHandle.nullDevice)
        try process.run()
        return try collect(process)
    }

    private func makeProcess(_ executable: URL, _ arguments: [String], environment extra: [String: String], input: Any) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["COFFER_HOME"] = home.path
        environment.removeValue(forKey: "COFFER_LOG")
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        process.standardInput = input
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        return process
    }

    private func collect(_ process: Process) throws -> Outcome {
        let stdout = process.standardOutput as! Pipe, stderr = process.standardError as! Pipe
        // Standard error is read on another thread so that neither pipe fills while the other is read.
        let errorsBox = DataBox()
        let errorsRead = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            errorsBox.data = stderr.fileHandleForReading.readDataToEndOfFile()
            errorsRead.signal()
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        errorsRead.wait()
        let errors = errorsBox.data
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: output, as: UTF8.self),
            standardError: String(decoding: errors, as: UTF8.self))
    }
}

/// Bytes handed from a reading thread.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
