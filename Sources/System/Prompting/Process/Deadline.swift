/// When a conversation must be over, or never.
struct Deadline: Sendable {
    /// The instant, or nil for no deadline.
    let instant: ContinuousClock.Instant?

    /// No deadline: waits last as long as they take.
    static let none = Deadline(instant: nil)

    /// `duration` from now, or no deadline when `duration` is nil.
    static func after(_ duration: Duration?) -> Deadline {
        Deadline(instant: duration.map { ContinuousClock.now + $0 })
    }

    /// Whether the deadline has passed.
    var hasPassed: Bool {
        guard let instant else { return false }
        return ContinuousClock.now >= instant
    }

    /// What `poll` may wait, in milliseconds: -1 without a deadline, 0 once it has passed, and rounded up
    /// otherwise so that a wait never ends just before the deadline.
    var pollMilliseconds: Int32 {
        guard let instant else { return -1 }
        let remaining = instant - ContinuousClock.now
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}
