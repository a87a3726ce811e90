import CCofferSystem
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The agents the ssh-agent benchmark runs, kept running and stopped at the end (OpenSSH's tools run to completion
/// through ``BenchmarkProcesses``).
enum SSHAgentProcesses {
    /// Starts an agent that serves `socket` and waits (up to 10 s) until the socket is there.
    static func startAgent(_ arguments: [String], socket: String, environment: [String: String]) throws -> pid_t {
        let child = try BenchmarkProcesses.spawn(arguments, environment: environment)
        for _ in 0..<1000 where access(socket, F_OK) != 0 { usleep(10_000) }
        guard access(socket, F_OK) == 0 else {
            stop(child)
            throw BenchmarkProcesses.Failure(description: "\(arguments[0]) did not open \(socket)")
        }
        return child
    }

    /// Stops an agent (SIGTERM) and reaps it.
    static func stop(_ child: pid_t) {
        kill(child, SIGTERM)
        _ = try? BenchmarkProcesses.wait(for: child)
    }
}

/// One connection to an agent's socket, sending sign requests (`SSH_AGENTC_SIGN_REQUEST`) and reading the answers.
final class AgentSocketClient {
    private let descriptor: Int32

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkProcesses.Failure(description: "socket: errno \(errno)") }
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
            throw BenchmarkProcesses.Failure(description: "connect \(path): errno \(failure)")
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
        guard sent == frame.count else { throw BenchmarkProcesses.Failure(description: "send: errno \(errno)") }
        let header = try read(4)
        let length = header.reduce(0) { $0 << 8 | Int($1) }
        let answer = try read(length)
        guard answer.first == 14 else { throw BenchmarkProcesses.Failure(description: "the agent answered \(answer.first ?? 0), not a signature") }
    }

    private func read(_ count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + filled, count - filled, 0) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { throw BenchmarkProcesses.Failure(description: "the agent closed the connection") }
            filled += got
        }
        return buffer
    }
}
