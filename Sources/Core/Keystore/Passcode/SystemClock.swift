import Foundation

/// The system's wall clock.
public struct SystemClock: KeystoreClock {
    /// Creates the clock.
    public init() {}
    /// The current time.
    public func now() -> Date { Date() }
}
