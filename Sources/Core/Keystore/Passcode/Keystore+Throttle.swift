import Foundation

extension Keystore {
    /// How long until the throttle accepts the next attempt, by the keybag's count and the time of its last attempt.
    func remainingDelay(_ keybag: Keybag) -> Duration {
        Self.remainingDelay(keybag, now: clock.now())
    }

    /// ``remainingDelay(_:)`` at `now`, for code that has no keystore yet (recovery).
    static func remainingDelay(_ keybag: Keybag, now: Date) -> Duration {
        guard let last = keybag.lastAttemptTime else { return .zero }
        let delay = ThrottlePolicy().delay(afterFailedAttempts: keybag.failedAttempts)
        let elapsed = now.timeIntervalSince1970 - last
        let remaining = Double(delay.components.seconds) - max(elapsed, 0)
        return remaining > 0 ? .milliseconds(Int64((remaining * 1000).rounded(.up))) : .zero
    }
}
