// Modes of the helper that play a registered program, or an attacker posing as one, for the
// identity tests (MultiUserDaemonTests, ProgramIdentityTests).
import CofferRuntime
import DaemonProtocol
import Foundation
import KeychainClient
import KeychainOperations
import Query

#if canImport(Glibc)
import Glibc
#endif

/// The find request the daemon-client mode sends, as one frame.
func findFrame(account: String) -> Data {
    let query: QueryDictionary = ["class": "genp", "svce": "multi-user", "acct": .string(account), "r_Data": true]
    return try! RequestEnvelope(id: 1, request: .copyMatching(query)).encodedFrame()
}

/// Reads one answer from `descriptor` and returns what daemon-client prints: "0 VALUE" or the status.
func readAnswer(_ descriptor: Int32) -> String {
    var decoder = FrameDecoder(limits: .responses)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        if let payload = try? decoder.nextFrame(), let envelope = try? ResponseEnvelope(decodingPayload: payload) {
            switch envelope.response {
            case .value(.data(let value)?): return "0 " + String(decoding: value, as: UTF8.self)
            case .failure(let status, _): return "\(status.code)"
            case .status(let status): return "\(status.code)"
            default: return "unexpected answer"
            }
        }
        let count = read(descriptor, &buffer, buffer.count)
        if count <= 0 { return "connection closed" }
        decoder.append(buffer[0..<count])
    }
}

/// `exec-race SOCKET REGISTERED ACCOUNT COUNT`: COUNT times, a process forks a reader that shares its
/// (not yet connected) socket, connects, and at once execs REGISTERED (which lingers); the reader waits
/// until the process runs REGISTERED, then asks for ACCOUNT's item through the socket. Connecting just
/// before the exec makes the daemon see the registered program at `/proc/PID/exe` in many tries. Prints
/// each answer on a line of its own, then "successes N".
@MainActor func execRace() -> Never {
    guard arguments.count >= 6, let count = Int(arguments[5]) else { fail("exec-race SOCKET REGISTERED ACCOUNT COUNT") }
    let socketPath = arguments[2], registered = arguments[3]
    let frame = findFrame(account: arguments[4])
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in socketPath.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
    }
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup(registered), strdup("linger"), strdup("/"), strdup("60"), nil]
    var successes = 0
    for _ in 0..<count {
        var results: [Int32] = [0, 0]
        guard pipe(&results) == 0 else { fail("pipe") }
        let attacker = fork()
        if attacker == 0 {
            close(results[0])
            let connection = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            let reader = fork()
            if reader == 0 {
                // The helper sharing the socket: it reads once the parent runs the registered program.
                // (The command name, as /proc/PID/exe of a setgid program is not readable by its user.)
                let name = String(URL(fileURLWithPath: registered).lastPathComponent.prefix(15))
                for _ in 0..<2000 where ProcessInfoProbe.command(of: getppid()) != name { usleep(50) }
                let answer = UnixSocket.writeAll(connection, frame) ? readAnswer(connection) : "write failed"
                _ = answer.withCString { write(results[1], $0, strlen($0)) }
                _exit(0)
            }
            close(results[1])
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(connection, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if connected != 0 { _exit(3) }
            execv(registered, argv)
            _exit(4)
        }
        close(results[1])
        var text = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(results[0], &buffer, buffer.count)
            if count <= 0 { break }
            text += buffer[0..<count]
        }
        close(results[0])
        var status: Int32 = 0
        waitpid(attacker, &status, 0)
        let answer = String(decoding: text, as: UTF8.self)
        print(answer.isEmpty ? "no answer" : answer)
        if answer.hasPrefix("0 ") { successes += 1 }
    }
    print("successes \(successes)")
    exit(0)
}

/// `linger FOLDER MILLISECONDS`: stays alive for a while (the registered program an attacker execs).
@MainActor func linger() -> Never {
    usleep(UInt32(arguments.count >= 4 ? (Int(arguments[3]) ?? 300) : 300) * 1000)
    exit(0)
}

/// `wait-then-client SOCKET add|find ACCOUNT [GROUP]`: prints "ready PID", waits for a line on standard
/// input, then runs the daemon-client call (so a test can replace the file, or attach a debugger, first).
@MainActor func waitThenClient() -> Never {
    FileHandle.standardOutput.write(Data("ready \(getpid())\n".utf8))
    _ = readLine()
    daemonClient()
}

/// `connect-and-wait SOCKET`: connects, prints "ready", and keeps the connection until standard input closes.
@MainActor func connectAndWait() -> Never {
    guard let connection = try? UnixSocket.connect(to: arguments[2]) else { fail("cannot connect") }
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    while readLine() != nil {}
    close(connection)
    exit(0)
}

enum ProcessInfoProbe {
    /// The command name of process `pid` (`/proc/PID/comm`), or nil.
    static func command(of pid: pid_t) -> String? {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
