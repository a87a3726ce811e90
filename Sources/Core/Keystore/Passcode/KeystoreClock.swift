import Foundation

/// The wall clock the keystore reads to enforce passcode delays; tests inject their own.
public protocol KeystoreClock: Sendable {
    /// The current time.
    func now() -> Date
}
