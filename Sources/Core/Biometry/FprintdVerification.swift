/// One verification on fprintd's reader: claim, start, wait for the result or the deadline, then stop
/// and release.
struct FprintdVerification {
    /// The reader, on the connection this verification owns.
    let device: FprintdDevice
    /// The user whose fingers are verified.
    let user: String
    /// When waiting ends with ``BiometricVerification/timedOut``.
    let deadline: ContinuousClock.Instant

    /// Runs the verification to its outcome. Once `Claim` has been sent, `VerifyStop` and `Release` are
    /// sent on every path (their errors, such as `NoActionInProgress`, are of no consequence).
    func run() -> BiometricVerification {
        do throws(BusFailure) {
            // Subscribed before VerifyStart, so that no status can come before the match.
            try device.connection.addMatch(FprintdNames.verifyStatusRule(devicePath: device.path))
            try device.connection.addMatch(FprintdNames.ownerChangedRule)
        } catch {
            return .unavailable(reason: "the bus refused a signal subscription: \(error)")
        }
        guard let claimTimeout = remaining() else { return .timedOut }
        defer { cleanUp() }
        do throws(BusFailure) {
            try device.call("Claim", argument: user, timeout: claimTimeout)
            guard let startTimeout = remaining() else { return .timedOut }
            try device.call("VerifyStart", argument: FprintdNames.anyFinger, timeout: startTimeout)
        } catch {
            return outcome(ofRefusal: error)
        }
        return awaitStatus()
    }

    /// Reads signals until fprintd reports a result, leaves the bus, or the deadline passes.
    private func awaitStatus() -> BiometricVerification {
        do throws(BusFailure) {
            while let message = try device.connection.nextMessage(before: deadline) {
                if device.isVerifyStatus(message) {
                    let result = try message.readString()
                    if let outcome = FprintdVerifyStatus.outcome(result: result, done: try message.readBool()) {
                        return outcome
                    }
                } else if message.isSignal(interface: "org.freedesktop.DBus", member: "NameOwnerChanged") {
                    let name = try message.readString()
                    _ = try message.readString()
                    let newOwner = try message.readString()
                    if name == FprintdNames.busName && newOwner != device.owner {
                        return .unavailable(reason: "fprintd left the bus during the verification")
                    }
                }
            }
            return .timedOut
        } catch {
            return .unavailable(reason: "the bus connection to fprintd failed during the verification: \(error)")
        }
    }

    /// The outcome when `Claim` or `VerifyStart` failed.
    private func outcome(ofRefusal failure: BusFailure) -> BiometricVerification {
        if failure.timedOut && ContinuousClock.now >= deadline { return .timedOut }
        if failure.hasName(FprintdNames.noEnrolledPrints) {
            return .unavailable(reason: "no finger is enrolled with fprintd for \"\(user)\"")
        }
        if failure.hasName(FprintdNames.alreadyInUse) {
            return .unavailable(reason: "the fingerprint reader is in use by another program")
        }
        return .unavailable(reason: "fprintd refused the verification: \(failure)")
    }

    /// Stops the verification and releases the reader, each call bounded by the cleanup timeout.
    private func cleanUp() {
        _ = try? device.call("VerifyStop", timeout: FprintdSensor.cleanupTimeout)
        _ = try? device.call("Release", timeout: FprintdSensor.cleanupTimeout)
    }

    /// The time left before the deadline, capped at one call's timeout; nil once it has passed.
    private func remaining() -> Duration? {
        let left = deadline - ContinuousClock.now
        return left > .zero ? min(left, FprintdSensor.callTimeout) : nil
    }
}
