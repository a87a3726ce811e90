extension Keystore {
    /// How long until the throttle accepts the next attempt, by the keybag's count and the time of its last attempt.
    func remainingDelay(_ keybag: Keybag) -> Duration {
        guard let last = keybag.lastAttemptTime else { return .zero }
        let delay = throttle.delay(afterFailedAttempts: keybag.failedAttempts)
        let elapsed = clock.now().timeIntervalSince1970 - last
        let remaining = Double(delay.components.seconds) - max(elapsed, 0)
        return remaining > 0 ? .milliseconds(Int64((remaining * 1000).rounded(.up))) : .zero
    }
}
