#if canImport(Glibc)
import Glibc
#endif

/// The daemon's file descriptor limit, and the connection cap it allows.
enum FileDescriptorLimit {
    /// Descriptors kept for what is not a connection: the keychains' databases, write-ahead logs and
    /// keybags, the listening socket, the watcher's `epoll` and wake-up descriptors.
    static let reserved = 512
    /// The largest automatic connection cap.
    static let automaticCap = 4_096

    /// Raises the soft `RLIMIT_NOFILE` to the hard one and returns the soft limit now in force. Raising
    /// may be refused (the system unit's seccomp filter denies `setrlimit`; the unit sets both limits
    /// with `LimitNOFILE=` instead); the limit in force is returned either way.
    static func raiseSoftToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// The connection cap for a descriptor limit: what is left after ``reserved``, since a connection costs
    /// one descriptor, its socket's, once its caller is identified (its peer's pidfd is closed then). What a
    /// request opens while served (a program's executable, read to identify it) comes from ``reserved``.
    static func connectionCap(forDescriptorLimit limit: Int) -> Int {
        max(16, min(automaticCap, limit - reserved))
    }
}
