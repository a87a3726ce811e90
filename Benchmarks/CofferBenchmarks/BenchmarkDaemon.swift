import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A `cofferd` of the build this benchmark belongs to (the binary beside this one), on a private state folder and
/// socket. It is started with `posix_spawn` rather than Foundation's `Process`, which cannot start a program
/// under valgrind: so `Benchmarks/instructions.sh` can count this program's instructions with the daemon running.
struct BenchmarkDaemon {
    /// The socket the daemon listens on.
    let socket: String
    /// The daemon's process id.
    let pid: pid_t

    /// Starts a daemon on `state` (its state folder) and `socket`, with `arguments` added, and waits for its socket.
    init(state: URL, socket: String, arguments: [String] = []) throws {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let daemonPath = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("cofferd").path
        self.socket = socket
        pid = try BenchmarkProcesses.spawn(
            [daemonPath, "--state-dir", state.path, "--socket", socket] + arguments, environment: ProcessInfo.processInfo.environment)
        for _ in 0..<3_000 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        guard FileManager.default.fileExists(atPath: socket) else {
            stop()
            throw BenchmarkProcesses.Failure(description: "cofferd did not open \(socket)")
        }
    }

    /// Starts a daemon on a state folder and socket in `scratch`.
    init(scratch: URL) throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try self.init(state: scratch.appendingPathComponent("state"), socket: scratch.appendingPathComponent("cofferd.socket").path)
    }

    /// Stops the daemon (SIGTERM) and waits for it to end.
    func stop() {
        kill(pid, SIGTERM)
        _ = try? BenchmarkProcesses.wait(for: pid)
    }
}
