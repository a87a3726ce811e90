import Dispatch

/// The time of the daemon's deadlines: nanoseconds of the system's monotonic clock.
enum MonotonicClock {
    /// Now.
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }
}
