/// A source of biometric verification: fprintd (``FprintdSensor``), or a stand-in in tests.
///
/// Only the verifying side uses a sensor: the daemon, or the process of an embedded keychain. An app
/// never talks to the sensor itself, so it cannot fake a result.
public protocol BiometricSensor: Sendable {
    /// What biometry is available now, and the hash of the enrolled set when there is one.
    func availability() -> BiometryAvailability

    /// Asks fprintd to verify any enrolled finger; blocks the calling thread (callers run it on their own
    /// worker threads) until a result or the deadline.
    func verify(timeout: Duration) -> BiometricVerification
}
