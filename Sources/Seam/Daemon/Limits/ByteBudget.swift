import Synchronization

/// The frame bytes each uid has in flight (being received, being answered, queued for writing), held
/// under a per-uid and a global cap. Bytes are reserved before the memory that holds them is allocated
/// and released when it is freed.
final class ByteBudget: Sendable {
    private struct Usage {
        var total = 0
        var byUser: [UInt32: Int] = [:]
    }

    private let usage = Mutex(Usage())
    /// The most bytes one uid may have in flight.
    let perUser: Int
    /// The most bytes in flight in all.
    let total: Int

    /// A budget with the given caps.
    init(perUser: Int, total: Int) {
        self.perUser = perUser
        self.total = total
    }

    /// Reserves `bytes` for `uid`; false (nothing reserved) when either cap would be passed.
    func reserve(_ bytes: Int, for uid: UInt32) -> Bool {
        usage.withLock { usage in
            let used = usage.byUser[uid, default: 0]
            guard used + bytes <= perUser, usage.total + bytes <= total else { return false }
            usage.byUser[uid] = used + bytes
            usage.total += bytes
            return true
        }
    }

    /// Reserves `bytes` for `uid` past the caps: only for a small refusal that replaces a larger
    /// reservation just released, so the caps are never exceeded by more than one such frame per request.
    func forceReserve(_ bytes: Int, for uid: UInt32) {
        usage.withLock { usage in
            usage.byUser[uid, default: 0] += bytes
            usage.total += bytes
        }
    }

    /// Gives back bytes reserved for `uid`.
    func release(_ bytes: Int, for uid: UInt32) {
        guard bytes > 0 else { return }
        usage.withLock { usage in
            usage.total -= bytes
            let left = usage.byUser[uid, default: bytes] - bytes
            usage.byUser[uid] = left > 0 ? left : nil
        }
    }

    /// The bytes `uid` has in flight now.
    func used(by uid: UInt32) -> Int { usage.withLock { $0.byUser[uid, default: 0] } }
    /// The bytes in flight now, all users together.
    var usedInAll: Int { usage.withLock { $0.total } }
}
