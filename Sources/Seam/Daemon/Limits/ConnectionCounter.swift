import Synchronization

/// Counts open connections per uid and in all, and admits a new one only under both caps.
final class ConnectionCounter: Sendable {
    /// Why a connection was not admitted.
    enum Refusal: Sendable, Equatable {
        /// The uid holds ``ResourceLimits/connectionsPerUser`` connections already.
        case userCap(Int)
        /// The daemon holds its global number of connections already.
        case globalCap(Int)
    }

    private struct Counts {
        var total = 0
        var byUser: [UInt32: Int] = [:]
    }

    private let counts = Mutex(Counts())
    /// The most connections one uid may hold.
    let perUser: Int
    /// The most connections in all.
    let total: Int

    /// A counter with the given caps.
    init(perUser: Int, total: Int) {
        self.perUser = perUser
        self.total = total
    }

    /// Counts a connection of `uid` in, or says which cap refuses it.
    func admit(_ uid: UInt32) -> Refusal? {
        counts.withLock { counts in
            let held = counts.byUser[uid, default: 0]
            if held >= perUser { return .userCap(perUser) }
            if counts.total >= total { return .globalCap(total) }
            counts.byUser[uid] = held + 1
            counts.total += 1
            return nil
        }
    }

    /// Counts an admitted connection of `uid` out.
    func release(_ uid: UInt32) {
        counts.withLock { counts in
            counts.total -= 1
            let held = counts.byUser[uid, default: 1] - 1
            counts.byUser[uid] = held > 0 ? held : nil
        }
    }

    /// The connections `uid` holds now.
    func held(by uid: UInt32) -> Int { counts.withLock { $0.byUser[uid, default: 0] } }
}
