import Foundation

/// The wall clock the keystore reads to enforce passcode delays; tests inject their own.
public protocol KeystoreClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system's wall clock.
public struct SystemClock: KeystoreClock {
    /// Creates the clock.
    public init() {}
    /// The current time.
    public func now() -> Date { Date() }
}
