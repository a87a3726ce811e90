import Biometry
import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// Biometry through a sensor (fprintd): the keychain's ``BiometricVerifier`` over `Biometry`.
public struct SensorVerifier: BiometricVerifier {
    /// The sensor asked.
    public let sensor: any BiometricSensor
    /// How long a person has to touch the reader.
    public let timeout: Duration

    /// A verifier over `sensor`.
    public init(sensor: any BiometricSensor, timeout: Duration = .seconds(30)) {
        self.sensor = sensor
        self.timeout = timeout
    }

    /// fprintd on the system bus, for the user `uid` (the daemon verifies for each user; an embedded process
    /// for itself); nil when the user has no name. The bus is the one `DBUS_SYSTEM_BUS_ADDRESS` in
    /// `environment` names, else the system's.
    public static func fprintd(uid: UInt32 = getuid(), environment: [String: String] = [:]) -> SensorVerifier? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return SensorVerifier(sensor: FprintdSensor(user: String(cString: name), busAddress: environment["DBUS_SYSTEM_BUS_ADDRESS"]))
    }

    public func state() -> BiometryState {
        switch sensor.availability() {
        case .notAvailable(let reason): .notAvailable(reason: reason)
        case .notEnrolled: .notEnrolled
        case .available(let hash): .available(domainState: hash)
        }
    }

    public func verify(reason: String) -> BiometricResult {
        switch sensor.verify(timeout: timeout) {
        case .matched: .matched
        case .noMatch: .noMatch
        case .cancelled: .cancelled
        case .timedOut: .timedOut
        case .unavailable(let reason): .unavailable(reason: reason)
        }
    }
}
