import FakeFprintd
import Biometry
import Testing

/// What `FprintdSensor.availability()` reports, against a fake fprintd on a private bus.
@Suite(.timeLimit(.minutes(10))) struct FprintdAvailabilityTests {
    @Test func noFprintdOnTheBusIsNotAvailable() throws {
        let bus = try FakeFprintdBus(withFprintd: false)
        let availability = FprintdSensor(user: "alice", busAddress: bus.address).availability()
        guard case .notAvailable(let reason) = availability else {
            Issue.record("expected notAvailable, got \(availability)")
            return
        }
        #expect(reason.contains("fprintd"))
        #expect(reason.contains("not on the bus"))
    }

    @Test func noBusAtTheAddressIsNotAvailable() {
        let availability = FprintdSensor(user: "alice", busAddress: "unix:path=/nonexistent/coffer/bus").availability()
        guard case .notAvailable(let reason) = availability else {
            Issue.record("expected notAvailable, got \(availability)")
            return
        }
        #expect(reason.contains("fprintd"))
    }

    @Test func noReaderIsNotAvailable() throws {
        let bus = try FakeFprintdBus(state: FakeFprintdState(device: false, enrolled: ["right-index-finger"]))
        let availability = FprintdSensor(user: "alice", busAddress: bus.address).availability()
        guard case .notAvailable(let reason) = availability else {
            Issue.record("expected notAvailable, got \(availability)")
            return
        }
        #expect(reason.contains("no fingerprint reader"))
    }

    @Test func noEnrolledFingerIsNotEnrolled() throws {
        let bus = try FakeFprintdBus(state: FakeFprintdState(enrolled: []))
        #expect(FprintdSensor(user: "alice", busAddress: bus.address).availability() == .notEnrolled)
        #expect(bus.calls() == ["ListEnrolledFingers alice"])
    }

    @Test func enrolledFingersAreAvailableWithA32ByteHash() throws {
        let bus = try FakeFprintdBus(state: FakeFprintdState(enrolled: ["right-index-finger"]))
        let availability = FprintdSensor(user: "alice", busAddress: bus.address).availability()
        guard case .available(let hash) = availability else {
            Issue.record("expected available, got \(availability)")
            return
        }
        #expect(hash.count == 32)
    }

    /// `evaluatedPolicyDomainState` must change when the enrolled set changes, and only then.
    @Test func theHashFollowsTheEnrolledSet() throws {
        let bus = try FakeFprintdBus(state: FakeFprintdState(enrolled: ["right-index-finger", "left-thumb"]))
        let sensor = FprintdSensor(user: "alice", busAddress: bus.address)
        let first = sensor.availability()
        #expect(sensor.availability() == first)

        try bus.setState(FakeFprintdState(enrolled: ["left-thumb", "right-index-finger"]))
        #expect(sensor.availability() == first, "the order fprintd lists fingers in does not count")

        try bus.setState(FakeFprintdState(enrolled: ["left-thumb", "right-index-finger", "right-thumb"]))
        let added = sensor.availability()
        #expect(added != first)
        guard case .available(let addedHash) = added else {
            Issue.record("expected available, got \(added)")
            return
        }
        #expect(addedHash.count == 32)

        try bus.setState(FakeFprintdState(enrolled: ["left-thumb"]))
        let removed = sensor.availability()
        #expect(removed != first && removed != added)

        try bus.setState(FakeFprintdState(enrolled: ["left-thumb", "right-index-finger"]))
        #expect(sensor.availability() == first, "the same set again gives the same hash")
        #expect(FprintdSensor(user: "bob", busAddress: bus.address).availability() != first, "another user, another hash")
    }
}
