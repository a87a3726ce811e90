import CofferRuntime
import DaemonProtocol
import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations
import Query
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What cofferd's watcher thread does for connections no worker is busy with: answers a client is slow to
/// read wait whole and in order and are sent as it reads; a connection idle for `--idle-timeout` is closed
/// while one that keeps asking is not; and with nothing to do, the watcher sleeps rather than polls.
@Suite("cofferd: the connection watcher", .serialized, .timeLimit(.minutes(10)))
struct ConnectionWatchingTests {
    private static func frame(_ id: UInt64, _ request: Request) throws -> Data {
        try RequestEnvelope(id: id, request: request).encodedFrame()
    }

    /// Reads answers in the order they come until `count` have (or the connection ends).
    private static func answers(_ descriptor: Int32, count: Int) -> [(id: UInt64, response: Response)] {
        var decoder = FrameDecoder(limits: .responses)
        var answers: [(id: UInt64, response: Response)] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while answers.count < count {
            let received = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard received > 0 else { break }
            decoder.append(buffer[..<received])
            while let payload = try? decoder.nextFrame() {
                guard let envelope = try? ResponseEnvelope(decodingPayload: payload) else {
                    Issue.record("an answer does not decode: answers were interleaved or cut")
                    return answers
                }
                answers.append((envelope.id, envelope.response))
            }
        }
        return answers
    }

    @Test func largeAnswersToAClientSlowToReadArriveWholeAndInOrder() throws {
        let daemon = try DaemonProcess()
        let secret = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let item: QueryDictionary = ["class": "genp", "svce": "watcher", "acct": "large"]
        var adding = item
        adding.entries["v_Data"] = .data(secret)
        _ = try daemon.client().statusCalls.add(adding)
        var finding = item
        finding.entries["r_Data"] = true
        let connection = try DaemonLimitsTests.connect(daemon, timeout: 30)
        defer { close(connection) }
        // Three 1 MiB answers and a small one, asked for at once in order, then not read for a while: the
        // socket takes a fraction of the first; the rest waits in the daemon.
        var burst = Data()
        for id in 1...3 { burst += try Self.frame(UInt64(id), .copyMatching(finding)) }
        #expect(UnixSocket.writeAll(connection, burst))
        usleep(300_000)
        #expect(UnixSocket.writeAll(connection, try Self.frame(4, .lockStatus)))
        usleep(500_000)
        let answers = Self.answers(connection, count: 4)
        #expect(answers.count == 4)
        let finds = answers.filter { $0.id <= 3 }
        #expect(Set(finds.map(\.id)) == [1, 2, 3])
        for (id, response) in finds {
            guard case .value(.data(let data)?) = response else {
                Issue.record("find \(id): \(response)")
                continue
            }
            #expect(data == secret, "find \(id)")
        }
        // The small answer was asked last and comes after the large ones it queued behind.
        #expect(answers.last?.id == 4)
        if case .lockStatus = answers.last?.response {} else { Issue.record("lock status: \(String(describing: answers.last))") }
        #expect(daemon.terminate() == 0)
    }

    @Test func anIdleConnectionIsClosedAndABusyOneIsNot() throws {
        let daemon = try DaemonProcess(extraArguments: ["--idle-timeout", "1"])
        let idle = try DaemonLimitsTests.connect(daemon, timeout: 10)
        defer { close(idle) }
        let busy = try DaemonLimitsTests.connect(daemon, timeout: 10)
        defer { close(busy) }
        #expect(UnixSocket.writeAll(idle, try Self.frame(1, .lockStatus)))
        #expect(Self.answers(idle, count: 1).count == 1)
        let started = ContinuousClock.now
        // The busy connection asks every 300 ms for 2.4 s, well past the idle time-out: every request is answered.
        for id in 1...8 {
            #expect(UnixSocket.writeAll(busy, try Self.frame(UInt64(id), .lockStatus)), "request \(id)")
            #expect(Self.answers(busy, count: 1).first?.id == UInt64(id), "request \(id)")
            usleep(300_000)
        }
        #expect(DaemonLimitsTests.closedByDaemon(idle), "the idle connection was closed")
        #expect(ContinuousClock.now - started < .seconds(8))
        #expect(daemon.terminate() == 0)
    }

    /// With a connection open and idle, the watcher thread sleeps in `epoll_wait` until the connection's
    /// idle time-out: it is not switched to at all for a second.
    @Test func anIdleDaemonsWatcherSleeps() throws {
        let daemon = try DaemonProcess()
        let connection = try DaemonLimitsTests.connect(daemon, timeout: 10)
        defer { close(connection) }
        #expect(UnixSocket.writeAll(connection, try Self.frame(1, .lockStatus)))
        #expect(Self.answers(connection, count: 1).count == 1)
        usleep(200_000)
        let pid = daemon.process.pid
        let before = try #require(Self.switches(ofThreadNamed: "coffer-watch", in: pid))
        usleep(1_000_000)
        let after = try #require(Self.switches(ofThreadNamed: "coffer-watch", in: pid))
        #expect(after == before, "the watcher woke \(after - before) times while nothing happened")
        #expect(daemon.terminate() == 0)
    }

    /// The context switches of the thread named `name` in process `pid` (`/proc/PID/task/*/status`).
    private static func switches(ofThreadNamed name: String, in pid: Int32) -> Int? {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return nil }
        for thread in threads {
            guard let comm = try? String(contentsOfFile: "\(tasks)/\(thread)/comm", encoding: .utf8),
                comm.trimmingCharacters(in: .whitespacesAndNewlines) == name,
                let status = try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8)
            else { continue }
            return status.split(separator: "\n").filter { $0.contains("ctxt_switches") }.compactMap { line in
                line.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            }.reduce(0, +)
        }
        return nil
    }
}
