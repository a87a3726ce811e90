import Foundation
import KeychainModel
import Prompting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Reading one secret line: what the terminal and a script's standard input give.
@Suite("Reading a secret line", .timeLimit(.minutes(10)))
struct SecretLineReaderTests {
    /// A pipe holding `text`, its writing end closed unless `keepOpen`; returns the reading end and the writing end (-1 when closed).
    private static func pipe(holding text: String, keepOpen: Bool = false) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        precondition(Glibc.pipe(&ends) == 0)
        let bytes = Array(text.utf8)
        precondition(write(ends[1], bytes, bytes.count) == bytes.count)
        if !keepOpen {
            close(ends[1])
            ends[1] = -1
        }
        return (ends[0], ends[1])
    }

    private static func text(_ secret: SecretBytes?) -> String? {
        secret.map { $0.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
    }

    @Test func readsOneLineAtATimeWithoutItsEnding() throws {
        let ends = Self.pipe(holding: "first\r\nsecond\n\nlast")
        defer { close(ends.read) }
        let reader = SecretLineReader()
        #expect(Self.text(try reader.readLine(from: ends.read)) == "first")
        #expect(Self.text(try reader.readLine(from: ends.read)) == "second")
        #expect(Self.text(try reader.readLine(from: ends.read)) == "")
        #expect(Self.text(try reader.readLine(from: ends.read)) == "last")
        #expect(try reader.readLine(from: ends.read) == nil)
    }

    @Test func aLineLongerThanTheLimitIsRefused() throws {
        let ends = Self.pipe(holding: "12345\n1234\n")
        defer { close(ends.read) }
        let reader = SecretLineReader(limit: 4)
        #expect(throws: SecretLineReader.Failure.tooLong(limit: 4)) { try reader.readLine(from: ends.read) }
    }

    @Test func aLineAtTheLimitWithACarriageReturnIsKept() throws {
        let ends = Self.pipe(holding: "1234\r\n")
        defer { close(ends.read) }
        #expect(Self.text(try SecretLineReader(limit: 4).readLine(from: ends.read)) == "1234")
    }

    @Test func aLineThatDoesNotEndInTimeTimesOut() throws {
        let ends = Self.pipe(holding: "half-typ", keepOpen: true)
        defer {
            close(ends.read)
            close(ends.write)
        }
        let started = ContinuousClock.now
        #expect(throws: SecretLineReader.Failure.timedOut) {
            try SecretLineReader().readLine(from: ends.read, timeout: .milliseconds(200))
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(200))
        #expect(elapsed < .seconds(5))
    }
}
