import Synchronization

/// The memory staged restores (``KeychainOperations/Request/stageRestore(_:)``) may hold, and the rules for it:
/// shared by every keychain service of a process (the daemon gives one to each user's service), so that the total
/// holds across users.
///
/// With the defaults (the daemon's) a caller may stage 64 MiB (a backup of about 180,000 small items; 100,000
/// take about 35 MiB), and so may a user, whatever its connections and programs: a quarter of the 256 MiB all
/// users together may stage, so that no one user can take the room another user's restore needs (only four
/// accounts together could). That is beside the daemon's 512 MiB of frames in flight; a staging no part reached
/// for two minutes is dropped. A keychain in its own process stages in that process's memory, so
/// ``Limits/inProcess`` allows 1 GiB.
public final class RestoreStagingPool: Sendable {
    /// The bounds of staged restores.
    public struct Limits: Sendable, Equatable {
        /// The most bytes one caller (one daemon connection; in process, one caller context) may have staged.
        public var bytesPerCaller: Int
        /// The most bytes one user may have staged, all its callers and connections together (one keychain
        /// service is one user's keychain).
        public var bytesPerUser: Int
        /// The most bytes staged by all callers together.
        public var bytesInAll: Int
        /// The most restores one caller may be staging at once.
        public var stagingsPerCaller: Int
        /// How long after its last part a staging is dropped as abandoned.
        public var abandonedAfter: Duration

        /// Limits with the documented defaults, any of them replaced.
        public init(
            bytesPerCaller: Int = 64 << 20, bytesPerUser: Int = 64 << 20, bytesInAll: Int = 256 << 20, stagingsPerCaller: Int = 2,
            abandonedAfter: Duration = .seconds(120)
        ) {
            self.bytesPerCaller = max(bytesPerCaller, 0)
            self.bytesPerUser = max(bytesPerUser, 0)
            self.bytesInAll = max(bytesInAll, 0)
            self.stagingsPerCaller = max(stagingsPerCaller, 1)
            self.abandonedAfter = abandonedAfter
        }

        /// The bounds of a keychain embedded in its own process: 1 GiB per caller, per user and in all.
        public static let inProcess = Limits(bytesPerCaller: 1 << 30, bytesPerUser: 1 << 30, bytesInAll: 1 << 30)
    }

    /// The bounds.
    public let limits: Limits
    private let used = Mutex(0)

    /// A pool with `limits`.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The bytes staged now, all callers together.
    public var usedBytes: Int { used.withLock { $0 } }

    /// Reserves `bytes`; false (nothing reserved) when the total would pass ``Limits/bytesInAll``.
    func reserve(_ bytes: Int) -> Bool {
        used.withLock { used in
            guard used + bytes <= limits.bytesInAll else { return false }
            used += bytes
            return true
        }
    }

    /// Gives back bytes reserved.
    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        used.withLock { $0 -= bytes }
    }
}
