import Foundation
import TestProcesses

/// An attacking user's program (python3, run as that user): opens many connections to cofferd, sends
/// partial largest-size frames on some of them and stalls, reports how many connections the daemon
/// kept open, and holds them until its standard input closes.
struct ConnectionHoarder {
    /// The script: `SOCKET CONNECTIONS PARTIAL_FRAMES BYTES_PER_PARTIAL_FRAME`.
    static let script = #"""
        resource, socket, sys, time = (__import__(name) for name in ("resource", "socket", "sys", "time"))
        path, count, partial, sent = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        connections = []
        for _ in range(count):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(path)
                connections.append(s)
            except OSError:
                s.close()
        header = b"CFRP" + bytes([0, 1]) + (17 << 20).to_bytes(4, "big")
        chunk = bytes(sent)
        for s in connections[:partial]:
            try:
                s.settimeout(10)
                s.sendall(header + chunk)
            except OSError:
                pass
        time.sleep(1)
        held = 0
        for s in connections:
            s.setblocking(False)
            try:
                if s.recv(1) != b"":
                    held += 1
            except BlockingIOError:
                held += 1
            except OSError:
                pass
        print("holding", held, flush=True)
        sys.stdin.read()
        """#

    let process: ChildProcess

    /// Starts the hoarder as `user` against `socket`; returns once it holds its connections, with how many the daemon kept.
    init(user: String, socket: String, connections: Int, partialFrames: Int, bytesPerFrame: Int) throws {
        process = try ChildProcess(
            ["/usr/sbin/runuser", "-u", user, "--", "/usr/bin/python3", "-c", Self.script, socket, "\(connections)", "\(partialFrames)", "\(bytesPerFrame)"],
            input: .pipe, errors: .null)
    }

    /// Waits (up to two minutes) for the report: how many connections the daemon kept open.
    func held() -> Int? {
        process.nextOutputLine(timeout: .seconds(120))?.split(separator: " ").last.flatMap { Int($0) }
    }

    /// Closes every connection: the hoarder exits.
    func stop() {
        process.closeInput()
        if process.wait(timeout: .seconds(30)) == nil { process.kill() }
    }
}

/// The resident memory of a process (`VmRSS` of `/proc/PID/status`), in bytes.
func residentBytes(of pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1_024 }
    }
    return nil
}
