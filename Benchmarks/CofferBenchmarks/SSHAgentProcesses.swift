import CCofferSystem
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The programs the ssh-agent benchmark runs: the two agents (kept running, stopped at the end) and OpenSSH's tools
/// (run to completion), each with an environment of its own and no descriptor but its standard streams.
enum SSHAgentProcesses {
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

    /// Starts an agent that serves `socket` and waits (up to 10 s) until the socket is there.
    static func startAgent(_ arguments: [String], socket: String, environment: [String: String]) throws -> pid_t {
        let child = try spawn(arguments, environment: environment)
        for _ in 0..<1000 where access(socket, F_OK) != 0 { usleep(10_000) }
        guard access(socket, F_OK) == 0 else {
            stop(child)
            throw Failure(description: "\(arguments[0]) did not open \(socket)")
        }
        return child
    }

    /// Stops an agent (SIGTERM) and reaps it.
    static func stop(_ child: pid_t) {
        kill(child, SIGTERM)
        _ = try? wait(for: child)
    }
}

/// One connection to an agent's socket, sending sign requests (`SSH_AGENTC_SIGN_REQUEST`) and reading the answers.
final class AgentSocketClient {
    private let descriptor: Int32

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SSHAgentProcesses.Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let failure = errno
            close(descriptor)
            throw SSHAgentProcesses.Failure(description: "connect \(path): errno \(failure)")
        }
    }

    deinit { close(descriptor) }

    /// The frame of a sign request for the key `blob` over `data`, flags 0.
    static func signRequest(blob: Data, data: Data) -> [UInt8] {
        var payload: [UInt8] = [13]
        func string(_ bytes: Data) {
            withUnsafeBytes(of: UInt32(bytes.count).bigEndian) { payload.append(contentsOf: $0) }
            payload.append(contentsOf: bytes)
        }
        string(blob)
        string(data)
        payload.append(contentsOf: [0, 0, 0, 0])
        var frame: [UInt8] = []
        withUnsafeBytes(of: UInt32(payload.count).bigEndian) { frame.append(contentsOf: $0) }
        return frame + payload
    }

    /// Sends `frame` and reads the answer; throws unless it is a signature (`SSH_AGENT_SIGN_RESPONSE`).
    func sign(_ frame: [UInt8]) throws {
        let sent = frame.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == frame.count else { throw SSHAgentProcesses.Failure(description: "send: errno \(errno)") }
        let header = try read(4)
        let length = header.reduce(0) { $0 << 8 | Int($1) }
        let answer = try read(length)
        guard answer.first == 14 else { throw SSHAgentProcesses.Failure(description: "the agent answered \(answer.first ?? 0), not a signature") }
    }

    private func read(_ count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + filled, count - filled, 0) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { throw SSHAgentProcesses.Failure(description: "the agent closed the connection") }
            filled += got
        }
        return buffer
    }
}
