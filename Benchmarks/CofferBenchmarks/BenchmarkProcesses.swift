import CCofferSystem
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Programs the benchmarks start: `posix_spawn` directly, each with an environment of its own and no descriptor but
/// its standard streams. `TestProcesses.ChildProcess` cannot be linked into this executable: its C part sets an
/// environment variable in a constructor, which leaves `CommandLine.arguments` empty in a build with
/// `--static-swift-stdlib`; and its `wait` polls with sleeps of a millisecond and more.
enum BenchmarkProcesses {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `arguments` (the first a path) with `environment`, standard input from `input` (or /dev/null) and output
    /// on /dev/null; returns its pid.
    static func spawn(_ arguments: [String], environment: [String: String], input: String? = nil) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        guard coffer_spawn_add_close_from(&actions, 3) == 0 else { throw Failure(description: "posix_spawn: no closefrom") }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, arguments[0], &actions, &attributes, &argv, &envp)
        guard spawned == 0 else { throw Failure(description: "posix_spawn \(arguments[0]): error \(spawned)") }
        return child
    }

    /// Runs `arguments` to completion; throws unless it exits 0.
    static func run(_ arguments: [String], environment: [String: String], input: String? = nil) throws {
        let status = try wait(for: spawn(arguments, environment: environment, input: input))
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")): wait status \(status)")
        }
    }

    /// Waits for `child` to end; its wait status.
    @discardableResult
    static func wait(for child: pid_t) throws -> Int32 {
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 {
            guard errno == EINTR else { throw Failure(description: "waitpid: errno \(errno)") }
        }
        return status
    }
}
