/// What one user may hold of the daemon at once, so that no user can starve another. Every limit is
/// checked before the work it bounds is done; each has a `cofferd` option.
///
/// With the defaults, one user's connections, partial frames and queued answers hold at most
/// ``bytesInFlightPerUser`` (96 MiB) of frame memory, all users together at most ``bytesInFlightTotal``
/// (512 MiB); SECURITY.md and `packaging/systemd/cofferd.service` (`MemoryMax=`) follow from these figures.
public struct ResourceLimits: Sendable, Equatable {
    /// Connections one uid may hold open at once (`--max-connections-per-user`, default 64). A further
    /// connection is closed as soon as it is accepted, before its caller is identified.
    public var connectionsPerUser: Int
    /// Connections held open at once, all users together (`--max-connections`); nil sizes it to the file
    /// descriptor limit (raised from its soft to its hard value at start): half of what is left after 512
    /// descriptors kept for the keychains' files, and at most 4 096.
    public var maximumConnections: Int?
    /// Frame bytes one uid may have in flight (`--max-bytes-in-flight-per-user`, default 96 MiB): requests
    /// being received (reserved at their announced length as soon as a header arrives, before any buffer
    /// is allocated), requests being answered, and answers queued for writing. A request that does not
    /// fit closes its connection; an answer that does not fit is replaced by `errSecAllocate` (-108).
    /// The default holds one largest answer (64 MiB) next to one largest request (17 MiB).
    public var bytesInFlightPerUser: Int
    /// Frame bytes in flight, all users together (`--max-bytes-in-flight`, default 512 MiB).
    public var bytesInFlightTotal: Int
    /// Bytes one uid's keychain folder may occupy on disk (`--storage-quota-per-user`, default 256 MiB):
    /// the items database, its write-ahead log, the keybag and the registry. A request that adds or
    /// changes items or registers a program is refused with `errSecDiskFull` (-34) when the folder and
    /// the request together would pass it; deletes, unlocks and passcode changes are always served.
    public var storedBytesPerUser: Int
    /// Free space the file system holding the keychains keeps (`--free-space-reserve`, default 64 MiB):
    /// below it, adds and updates of every user are refused with `errSecDiskFull`, so that unlocking
    /// (which writes the keybag) and deleting still work for everyone.
    public var freeSpaceReserve: Int
    /// How long a connection may stay silent in the middle of a frame before it is closed
    /// (`--frame-timeout`, default 10 s).
    public var frameTimeout: Duration
    /// How long a connection may stay idle between requests before it is closed (`--idle-timeout`,
    /// default 300 s); clients reconnect when they next need the daemon.
    public var idleTimeout: Duration
    /// Requests of one uid answered at once on the daemon's worker threads (default 4); more wait their
    /// turn, so one user's slow requests (a passcode check takes ~150 ms of scrypt) cannot take every thread.
    public var concurrentRequestsPerUser: Int
    /// Callers of one uid identified at once (default 2); identification reads `/proc` and may hash an
    /// executable, on a worker, never on the watcher.
    public var concurrentIdentificationsPerUser: Int

    /// Limits with the documented defaults, any of them replaced.
    public init(
        connectionsPerUser: Int = 64, maximumConnections: Int? = nil, bytesInFlightPerUser: Int = 96 << 20,
        bytesInFlightTotal: Int = 512 << 20, storedBytesPerUser: Int = 256 << 20, freeSpaceReserve: Int = 64 << 20,
        frameTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(300), concurrentRequestsPerUser: Int = 4,
        concurrentIdentificationsPerUser: Int = 2
    ) {
        self.connectionsPerUser = max(1, connectionsPerUser)
        self.maximumConnections = maximumConnections.map { max(1, $0) }
        self.bytesInFlightPerUser = max(1 << 20, bytesInFlightPerUser)
        self.bytesInFlightTotal = max(self.bytesInFlightPerUser, bytesInFlightTotal)
        self.storedBytesPerUser = max(0, storedBytesPerUser)
        self.freeSpaceReserve = max(0, freeSpaceReserve)
        self.frameTimeout = frameTimeout
        self.idleTimeout = idleTimeout
        self.concurrentRequestsPerUser = max(1, concurrentRequestsPerUser)
        self.concurrentIdentificationsPerUser = max(1, concurrentIdentificationsPerUser)
    }
}
