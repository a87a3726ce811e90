import Foundation
import KeychainSelection

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's find latency with several clients at once, and while another user attacks it: 1 000
/// held connections, 12 of them sending 16 MiB of a 17 MiB frame and stalling (issue #11's attack).
/// The attacker runs as `nobody`, so this part needs root; without it, it is skipped with a message.
enum DaemonAttackBenchmark {
    /// What the attack section measured.
    struct Report {
        /// Find latency alone and under attack, as rows (p50, p99).
        let rows: [ItemsBenchmark.Row]
        /// cofferd's resident memory before, during (the highest of two readings) and 2 s after the attack.
        let residentBefore: Int
        let residentDuring: Int
        let residentAfter: Int
        /// Connections the daemon kept open for the attacker.
        let held: Int
    }

    /// Finds from 8 clients (8 connections, one thread each) at once; each sample is one find.
    static func eightClients(socket: String, size: Int, findsPerClient: Int) -> ItemsBenchmark.Row {
        let samples = GatheredSamples()
        let done = DispatchGroup()
        for client in 0..<8 {
            done.enter()
            Thread {
                let keychain = DaemonKeychain(socketPath: socket)
                var accounts = ItemsBenchmark.RandomAccounts(count: size)
                for _ in 0..<client { _ = accounts.next() }
                let measured =
                    (try? ItemsBenchmark.timed(findsPerClient) {
                        _ = try keychain.blocking.copyMatching(ItemsBenchmark.findQuery(accounts.next(), returning: "r_Data"))
                    }) ?? []
                samples.append(measured)
                done.leave()
            }.start()
        }
        done.wait()
        return .init(size: size, operation: "daemon: find (data), 8 clients at once (each find)", samples: samples.all)
    }

    /// Finds by this user alone, then while `nobody` holds 1 000 connections with stalled frames.
    static func underAttack(socket: String, daemon: Int32, client: DaemonKeychain, size: Int, operations: Int) throws -> Report? {
        guard getuid() == 0 else {
            print("\n(The attack figures need root, to run the attacker as another user: skipped.)")
            return nil
        }
        var accounts = ItemsBenchmark.RandomAccounts(count: size)
        let alone = try ItemsBenchmark.timed(operations) {
            _ = try client.blocking.copyMatching(ItemsBenchmark.findQuery(accounts.next(), returning: "r_Data"))
        }
        let before = resident(daemon)
        // The attacker needs to reach the socket: search permission on the folders above it.
        // (The benchmark's own folders only, strictly below the temporary directory.)
        let temporary = FileManager.default.temporaryDirectory.standardizedFileURL.path
        var folder = URL(fileURLWithPath: socket).deletingLastPathComponent().standardizedFileURL
        while folder.path.hasPrefix(temporary + "/"), folder.path.count > temporary.count + 1 {
            chmod(folder.path, 0o711)
            folder.deleteLastPathComponent()
        }
        let attacker = try Attacker(socket: socket)
        defer { attacker.stop() }
        let held = attacker.held()
        var during = resident(daemon)
        let attacked = try ItemsBenchmark.timed(operations) {
            _ = try client.blocking.copyMatching(ItemsBenchmark.findQuery(accounts.next(), returning: "r_Data"))
        }
        during = max(during, resident(daemon))
        attacker.stop()
        Thread.sleep(forTimeInterval: 2)
        return Report(
            rows: [
                .init(size: size, operation: "daemon: find (data), alone", samples: alone),
                .init(size: size, operation: "daemon: find (data), while another user holds 1 000 connections and stalled 17 MiB frames", samples: attacked),
            ],
            residentBefore: before, residentDuring: during, residentAfter: resident(daemon), held: held)
    }

    /// `VmRSS` of a process, in bytes.
    static func resident(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) * 1_024
    }

    /// The attacking user's program: python3 as `nobody`, holding its connections until its input closes.
    private final class Attacker {
        static let script = #"""
            resource, socket, sys, time = (__import__(name) for name in ("resource", "socket", "sys", "time"))
            path = sys.argv[1]
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            connections = []
            for _ in range(1000):
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(path)
                connections.append(s)
            header = b"CFRP" + bytes([0, 1]) + (17 << 20).to_bytes(4, "big")
            for s in connections[:12]:
                try:
                    s.settimeout(10)
                    s.sendall(header + bytes(16 << 20))
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
            print(held, flush=True)
            sys.stdin.read()
            """#

        let process = Process()
        let input = Pipe()
        let output = Pipe()

        init(socket: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            process.arguments = ["-u", "nobody", "--", "/usr/bin/python3", "-c", Self.script, socket]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
        }

        func held() -> Int {
            var text = Data()
            while !text.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text.append(chunk)
            }
            return Int(String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }

        func stop() {
            guard process.isRunning else { return }
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }
}

/// Samples gathered from several threads.
final class GatheredSamples: @unchecked Sendable {
    private let lock = NSLock()
    private var samples: [Duration] = []
    func append(_ more: [Duration]) { lock.withLock { samples += more } }
    var all: [Duration] { lock.withLock { samples } }
}
