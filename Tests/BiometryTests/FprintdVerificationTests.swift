import FakeFprintd
import Biometry
import Testing

/// What `FprintdSensor.verify(timeout:)` reports, and what it asks of fprintd, against a fake fprintd on
/// a private bus.
@Suite(.timeLimit(.minutes(10))) struct FprintdVerificationTests {
    static let enrolled = ["right-index-finger"]

    @Test func aMatchingFingerIsMatched() throws {
        let bus = try FakeFprintdBus(state: FakeFprintdState(enrolled: Self.enrolled, verify: ["verify-match"]))
        #expect(FprintdSensor(user: "alice", busAddress: bus.address).verify(timeout: .seconds(10)) == .matched)
        #expect(bus.calls() == ["Claim alice", "VerifyStart any", "VerifyStop", "Release"])
    }

    @Test func aFingerThatMatchesNoneIsNoMatch() throws {
        let bus = try FakeFprintdBus(state: FakeFprintdState(enrolled: Self.enrolled, verify: ["verify-no-match"]))
        #expect(FprintdSensor(user: "alice", busAddress: bus.address).verify(timeout: .seconds(10)) == .noMatch)
        #expect(bus.calls() == ["Claim alice", "VerifyStart any", "VerifyStop", "Release"])
    }

    @Test func retriesAreWaitedThrough() throws {
        let statuses = ["verify-retry-scan", "verify-finger-not-centered", "verify-match"]
        let bus = try FakeFprintdBus(state: FakeFprintdState(enrolled: Self.enrolled, verify: statuses))
        #expect(FprintdSensor(user: "alice", busAddress: bus.address).verify(timeout: .seconds(10)) == .matched)
    }

    @Test func silenceTimesOutAtTheDeadlineAndStillStopsAndReleases() throws {
        let bus = try FakeFprintdBus(state: FakeFprintdState(enrolled: Self.enrolled, verify: []))
        let sensor = FprintdSensor(user: "alice", busAddress: bus.address)
        let clock = ContinuousClock()
        let started = clock.now
        let outcome = sensor.verify(timeout: .milliseconds(1500))
        let elapsed = clock.now - started
        #expect(outcome == .timedOut)
        #expect(elapsed >= .milliseconds(1500))
        // At most the deadline, then VerifyStop and Release (each bounded at half a second), and some slack
        // for a loaded machine.
        #expect(elapsed < .milliseconds(3000))
        #expect(bus.calls() == ["Claim alice", "VerifyStart any", "VerifyStop", "Release"])
    }

    @Test func noFprintdIsUnavailable() throws {
        let bus = try FakeFprintdBus(withFprintd: false)
        let outcome = FprintdSensor(user: "alice", busAddress: bus.address).verify(timeout: .seconds(5))
        guard case .unavailable(let reason) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(reason.contains("fprintd"))
    }

    @Test func noEnrolledFingerIsUnavailableAndReleases() throws {
        let bus = try FakeFprintdBus(state: FakeFprintdState(enrolled: [], verify: ["verify-match"]))
        let outcome = FprintdSensor(user: "alice", busAddress: bus.address).verify(timeout: .seconds(5))
        guard case .unavailable(let reason) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(reason.contains("enrolled"))
        #expect(bus.calls() == ["Claim alice", "VerifyStart any", "VerifyStop", "Release"])
    }

    @Test func aReaderInUseIsUnavailable() throws {
        let bus = try FakeFprintdBus(state: FakeFprintdState(enrolled: Self.enrolled, verify: ["verify-match"], busy: true))
        let outcome = FprintdSensor(user: "alice", busAddress: bus.address).verify(timeout: .seconds(5))
        #expect(outcome == .unavailable(reason: "the fingerprint reader is in use by another program"))
        #expect(bus.calls().first == "Claim alice")
        #expect(!bus.calls().contains("VerifyStart any"))
    }

    @Test func fprintdLeavingTheBusIsUnavailable() throws {
        let bus = try FakeFprintdBus(state: FakeFprintdState(enrolled: Self.enrolled, verify: [], vanish: true))
        let clock = ContinuousClock()
        let started = clock.now
        let outcome = FprintdSensor(user: "alice", busAddress: bus.address).verify(timeout: .seconds(20))
        #expect(outcome == .unavailable(reason: "fprintd left the bus during the verification"))
        #expect(clock.now - started < .seconds(5))
    }

    @Test func aDisconnectedReaderIsUnavailable() throws {
        let bus = try FakeFprintdBus(state: FakeFprintdState(enrolled: Self.enrolled, verify: ["verify-disconnected"]))
        let outcome = FprintdSensor(user: "alice", busAddress: bus.address).verify(timeout: .seconds(10))
        guard case .unavailable(let reason) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(reason.contains("disconnected"))
    }
}
