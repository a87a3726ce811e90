import CofferRuntime
import DaemonProtocol
import Foundation
import KeychainClient
import KeychainOperations
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A connection's requests are answered whoever reads them: a worker the watcher woke, or the worker that
/// answered the previous request and polls for the next (``RequestJob``). Frames sent right after an answer, split
/// across pauses, or several at once come out whole and matched to their identifiers; bytes that break
/// the format close the connection on either path. Nothing here depends on which path ran.
@Suite("cofferd: the worker that answered reads the next requests", .serialized, .timeLimit(.minutes(10)))
struct WorkerPollingTests {
    /// Sends `bytes` whole on a raw connection.
    private static func send(_ descriptor: Int32, _ bytes: Data) {
        #expect(UnixSocket.writeAll(descriptor, bytes))
    }

    /// Reads answers until `count` have come (or the connection ends), by identifier.
    private static func answers(_ descriptor: Int32, count: Int) -> [UInt64: Response] {
        var decoder = FrameDecoder(limits: .responses)
        var answers: [UInt64: Response] = [:]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while answers.count < count {
            let received = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard received > 0 else { break }
            decoder.append(buffer[..<received])
            while let payload = try? decoder.nextFrame(), let envelope = try? ResponseEnvelope(decodingPayload: payload) {
                answers[envelope.id] = envelope.response
            }
        }
        return answers
    }

    private static func frame(_ id: UInt64, _ request: Request = .lockStatus) throws -> Data {
        try RequestEnvelope(id: id, request: request).encodedFrame()
    }

    @Test func requestsSentRightAfterAnAnswerAndSplitAcrossPausesAreAnswered() throws {
        let daemon = try DaemonProcess()
        let connection = try DaemonLimitsTests.connect(daemon, timeout: 10)
        defer { close(connection) }
        var id: UInt64 = 1
        // Pauses around the worker's polling: none, shorter, about as long, and much longer.
        for pause: useconds_t in [0, 50, 150, 300, 2_000, 20_000] {
            Self.send(connection, try Self.frame(id))
            #expect(Self.answers(connection, count: 1)[id] != nil)
            id += 1
            // The next request at once, in three pieces: a partial header, the rest of the header and
            // part of the payload, then the remainder.
            let next = try Self.frame(id)
            Self.send(connection, next.prefix(3))
            usleep(pause)
            Self.send(connection, next.dropFirst(3).prefix(next.count / 2))
            usleep(pause)
            Self.send(connection, next.dropFirst(3 + next.count / 2))
            let answer = Self.answers(connection, count: 1)
            #expect(answer.keys.sorted() == [id], "pause \(pause) µs")
            if case .lockStatus = answer[id] {} else { Issue.record("pause \(pause) µs: \(String(describing: answer[id]))") }
            id += 1
        }
        #expect(daemon.terminate() == 0)
    }

    @Test func severalFramesAtOnceAfterAnAnswerAreAllAnswered() throws {
        let daemon = try DaemonProcess()
        let connection = try DaemonLimitsTests.connect(daemon, timeout: 10)
        defer { close(connection) }
        for round in 0..<20 {
            let base = UInt64(round * 100)
            Self.send(connection, try Self.frame(base))
            #expect(Self.answers(connection, count: 1)[base] != nil)
            // Eight frames in one write, right after the answer.
            var burst = Data()
            for offset in 1...8 { burst += try Self.frame(base + UInt64(offset)) }
            Self.send(connection, burst)
            let answers = Self.answers(connection, count: 8)
            #expect(answers.keys.sorted() == (1...8).map { base + UInt64($0) })
        }
        #expect(daemon.terminate() == 0)
    }

    @Test func aMalformedFrameRightAfterAnAnswerClosesTheConnectionOnly() throws {
        let daemon = try DaemonProcess()
        for pause: useconds_t in [0, 100, 5_000] {
            let connection = try DaemonLimitsTests.connect(daemon, timeout: 10)
            defer { close(connection) }
            Self.send(connection, try Self.frame(1))
            #expect(Self.answers(connection, count: 1)[1] != nil)
            usleep(pause)
            Self.send(connection, Data("not a frame header at all".utf8))
            #expect(DaemonLimitsTests.closedByDaemon(connection), "pause \(pause) µs")
        }
        // The daemon still answers others.
        _ = try daemon.client().blocking.lockStatus()
        #expect(daemon.terminate() == 0)
    }

    @Test func aClientThatLeavesRightAfterAnAnswerIsForgotten() throws {
        let daemon = try DaemonProcess(extraArguments: ["--max-connections-per-user", "8"])
        // More connections than the user may hold, each closed right after its answer: every one is
        // released, whichever thread was reading it.
        // (The daemon learns of a close a little after it: a connection refused meanwhile is tried again.)
        for id in 0..<40 {
            var answered = false
            for _ in 0..<500 where !answered {
                let connection = try DaemonLimitsTests.connect(daemon, timeout: 10)
                if UnixSocket.writeAll(connection, try Self.frame(UInt64(id))) {
                    answered = Self.answers(connection, count: 1)[UInt64(id)] != nil
                }
                close(connection)
                if !answered { usleep(10_000) }
            }
            #expect(answered, "connection \(id)")
        }
        _ = try daemon.client().blocking.lockStatus()
        #expect(daemon.terminate() == 0)
    }
}
