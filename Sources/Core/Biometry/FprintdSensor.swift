/// Biometry through fprintd (`net.reactivated.Fprint`), the fingerprint service of Linux desktops, over
/// its D-Bus API on the system bus.
///
/// Each call opens its own bus connection and closes it before returning; nothing is kept between calls.
/// Every D-Bus call has a timeout. Only the verifying side (the daemon, or the process of an embedded
/// keychain) uses this: an app never talks to fprintd for the keychain.
public struct FprintdSensor: BiometricSensor {
    /// How long one D-Bus call may take before the service counts as not answering.
    static let callTimeout: Duration = .seconds(5)
    /// How long each of `VerifyStop` and `Release` may take once a verification has ended.
    static let cleanupTimeout: Duration = .milliseconds(500)

    /// The user whose enrolled fingers count. fprintd reads "" as the user the calling process runs as;
    /// a name other than the caller's own needs polkit's `net.reactivated.fprint.device.setusername`
    /// (root has it).
    public let user: String
    /// The D-Bus address of the bus fprintd is on; nil for the system bus (`DBUS_SYSTEM_BUS_ADDRESS`
    /// when set, else the standard socket).
    public let busAddress: String?

    /// A sensor for `user`'s enrolled fingers, through the fprintd on the bus at `busAddress` (the system
    /// bus when nil).
    public init(user: String, busAddress: String? = nil) {
        self.user = user
        self.busAddress = busAddress
    }

    /// Asks fprintd for its default reader and `user`'s enrolled fingers.
    ///
    /// The hash of ``BiometryAvailability/available(enrolledSetHash:)`` is SHA-256 over the user name
    /// and the sorted enrolled finger names: it changes when a finger is enrolled or deleted. Re-enrolling
    /// a finger under the same name is not visible through fprintd's API, and leaves the hash unchanged.
    public func availability() -> BiometryAvailability {
        let connection: BusConnection
        let device: FprintdDevice
        do throws(BusFailure) {
            connection = try connect()
            device = try FprintdDevice.defaultDevice(on: connection, timeout: Self.callTimeout)
        } catch {
            return .notAvailable(reason: reason(for: error))
        }
        do throws(BusFailure) {
            let fingers = try device.enrolledFingers(user: user, timeout: Self.callTimeout)
            guard !fingers.isEmpty else { return .notEnrolled }
            return .available(enrolledSetHash: EnrolledSet(user: user, fingers: fingers).hash)
        } catch  where error.hasName(FprintdNames.noEnrolledPrints) {
            return .notEnrolled
        } catch {
            return .notAvailable(reason: "fprintd did not list the enrolled fingers of \(quoted(user)): \(error)")
        }
    }

    /// Claims fprintd's default reader for `user`, asks it to verify any enrolled finger, and waits for
    /// the result until `timeout` has passed. After the claim, `VerifyStop` and `Release` are always
    /// sent (each waiting at most half a second), whatever the outcome.
    public func verify(timeout: Duration) -> BiometricVerification {
        let deadline = ContinuousClock.now + timeout
        let connection: BusConnection
        let device: FprintdDevice
        do throws(BusFailure) {
            connection = try connect()
            device = try FprintdDevice.defaultDevice(on: connection, timeout: min(Self.callTimeout, timeout))
        } catch {
            return error.timedOut ? .timedOut : .unavailable(reason: reason(for: error))
        }
        return FprintdVerification(device: device, user: user, deadline: deadline).run()
    }

    private func connect() throws(BusFailure) -> BusConnection {
        try BusConnection(address: busAddress, timeout: Self.callTimeout)
    }

    /// Why fprintd's reader cannot be used, from the failure of connecting or of `GetDefaultDevice`.
    private func reason(for failure: BusFailure) -> String {
        if failure.hasName(FprintdNames.serviceUnknown) || failure.hasName(FprintdNames.nameHasNoOwner) {
            return "fprintd (\(FprintdNames.busName)) is not on the bus"
        }
        if failure.hasName(FprintdNames.noSuchDevice) {
            return "fprintd has no fingerprint reader"
        }
        if failure.errorName == nil {
            let bus = busAddress.map { "the bus at \($0)" } ?? "the system bus"
            return "fprintd cannot be asked: no connection to \(bus) (\(failure))"
        }
        return "fprintd did not name its reader: \(failure)"
    }

    private func quoted(_ text: String) -> String { "\"\(text)\"" }
}
