import Foundation

/// Failed passcode attempts counted in memory per caller (``PasscodeAttempts/caller(_:)``), with the
/// throttle's delays applied to each caller separately.
///
/// The table is bounded: past ``capacity`` callers, new names share one count, so a flood of names can
/// neither grow the daemon's memory nor buy fresh attempts.
struct CallerAttemptCounts: Sendable {
    /// The most callers counted apart.
    static let capacity = 1024
    /// The name callers beyond ``capacity`` share.
    static let overflowName = "(other callers)"

    private struct Count: Sendable {
        var failed = 0
        var lastAttempt: TimeInterval?
    }

    private var counts: [String: Count] = [:]

    /// What ``begin(_:at:throttle:)`` decided.
    enum Start: Equatable {
        /// The attempt may run; it is already counted as failed, with this many failures in a row.
        case counted(Int)
        /// The caller must wait this long first; nothing was counted.
        case wait(Duration)
    }

    /// Starts an attempt by `caller` at `now`: refused during the caller's delay, else counted as a
    /// failure before the passcode is checked (``succeeded(_:)`` clears it).
    mutating func begin(_ caller: String, at now: TimeInterval, throttle: ThrottlePolicy) -> Start {
        let name = counts[caller] != nil || counts.count < Self.capacity ? caller : Self.overflowName
        var count = counts[name] ?? Count()
        if let last = count.lastAttempt {
            let delay = throttle.delay(afterFailedAttempts: count.failed)
            let remaining = Double(delay.components.seconds) - max(now - last, 0)
            if remaining > 0 { return .wait(.milliseconds(Int64((remaining * 1000).rounded(.up)))) }
        }
        count.failed += 1
        count.lastAttempt = now
        counts[name] = count
        return .counted(count.failed)
    }

    /// Clears `caller`'s count after a right passcode.
    mutating func succeeded(_ caller: String) {
        counts[caller] = nil
    }
}
