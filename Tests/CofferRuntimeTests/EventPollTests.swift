import CofferRuntime
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The `epoll` instance cofferd's watcher sleeps in: a one-shot registration is reported once and not
/// again until it is changed, hang-ups are reported whatever the interest, and a wake-up ends a wait
/// without a time limit.
@Suite("Event poll", .timeLimit(.minutes(1)))
struct EventPollTests {
    private static func pair() throws -> (Int32, Int32) {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw UnixSocket.Failure("socketpair", errno) }
        return (ends[0], ends[1])
    }

    @Test func aOneShotRegistrationIsReportedOnceUntilChanged() throws {
        let poll = try EventPoll()
        let (watched, peer) = try Self.pair()
        defer { close(watched); close(peer) }
        try poll.add(watched, token: 7, interest: .read)
        var events: [EventPoll.Event] = []
        try poll.wait(timeout: .milliseconds(20), into: &events)
        #expect(events.isEmpty, "nothing to read yet")
        _ = write(peer, "x", 1)
        try poll.wait(timeout: .seconds(5), into: &events)
        #expect(events.map(\.token) == [7])
        #expect(events.map { [$0.readable, $0.writable, $0.hungUp] } == [[true, false, false]])
        // The byte is still there, but the registration is off until changed.
        try poll.wait(timeout: .milliseconds(50), into: &events)
        #expect(events.isEmpty)
        try poll.change(watched, token: 8, interest: [.read, .write])
        try poll.wait(timeout: .seconds(5), into: &events)
        #expect(events.map(\.token) == [8])
        #expect(events.map { [$0.readable, $0.writable, $0.hungUp] } == [[true, true, false]])
    }

    @Test func aHangUpIsReportedWithoutInterest() throws {
        let poll = try EventPoll()
        let (watched, peer) = try Self.pair()
        defer { close(watched) }
        try poll.add(watched, token: 3, interest: [])
        var events: [EventPoll.Event] = []
        try poll.wait(timeout: .milliseconds(20), into: &events)
        #expect(events.isEmpty)
        close(peer)
        try poll.wait(timeout: .seconds(5), into: &events)
        #expect(events.count == 1)
        #expect(events.first?.token == 3)
        #expect(events.first?.hungUp == true)
    }

    @Test func aWakeUpEndsAWaitWithoutTimeLimit() throws {
        let poll = try EventPoll()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { poll.wakeUp() }
        var events: [EventPoll.Event] = []
        try poll.wait(timeout: nil, into: &events)
        #expect(events.map(\.token) == [EventPoll.wakeToken])
        // The wake-up was consumed: the next wait times out.
        try poll.wait(timeout: .milliseconds(20), into: &events)
        #expect(events.isEmpty)
    }
}
