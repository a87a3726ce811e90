import ProgramIdentity
import CofferDiagnostics
import CofferRuntime
import Foundation
import KeychainService
import Logging
import Synchronization

/// What every connection of one server shares: the keychains, the limits and their bookkeeping, the
/// worker threads, and the state of shutdown. One per ``DaemonServer``; nothing here is global.
final class ServerContext: Sendable {
    /// The keychains, by uid.
    let keychains: UserKeychains
    /// Where keychains live (per-user mode trusts every program of its user).
    let mode: DaemonConfiguration.Mode
    /// Identifies the caller at connect (``PeerIdentifier/identify(peer:registry:isAbandoned:)``).
    let identifier: PeerIdentifier
    /// The limits in force.
    let limits: ResourceLimits
    /// Open connections per uid and in all.
    let connections: ConnectionCounter
    /// Frame bytes in flight per uid and in all.
    let bytes: ByteBudget
    /// The storage quota and free-space reserve.
    let quota: StorageQuota
    /// Identifications, at most ``ResourceLimits/concurrentIdentificationsPerUser`` per uid at once.
    let identifications: PerUserWorkQueue
    /// Requests, at most ``ResourceLimits/concurrentRequestsPerUser`` per uid at once.
    let requests: PerUserWorkQueue
    /// Refusals, logged once per burst.
    let refusals: RefusalLog
    /// The daemon's log.
    let logger = DiagnosticsLevel.logger(label: "coffer.daemon")
    /// Requests handed to the worker threads and not yet through routing (a request waiting on a person
    /// is not counted: shutdown does not wait for a person).
    let inFlight = Atomic<Int>(0)
    /// Whether a worker is polling a connection for its next request (``RequestJob``): one at a time, so
    /// that polling never takes more than one core.
    let workerPolling = Atomic<Bool>(false)
    /// Connections accepted so far: each gets the next number, for prompts tied to a connection.
    let connectionNumbers = Atomic<UInt64>(0)
    /// The thread that watches the listening socket, the connections no worker is busy with, and the
    /// time-outs.
    let watcher: ConnectionWatcher
    private let stopping = Atomic<Bool>(false)

    /// The shared state of a server with these keychains and limits; `connectionCap` is the global cap in force.
    init(
        keychains: UserKeychains, mode: DaemonConfiguration.Mode, identifier: PeerIdentifier, limits: ResourceLimits,
        connectionCap: Int, workers: WorkerThreads
    ) throws(UnixSocket.Failure) {
        self.identifier = identifier
        self.keychains = keychains
        self.mode = mode
        self.limits = limits
        connections = ConnectionCounter(perUser: limits.connectionsPerUser, total: connectionCap)
        bytes = ByteBudget(perUser: limits.bytesInFlightPerUser, total: limits.bytesInFlightTotal)
        quota = StorageQuota(perUser: limits.storedBytesPerUser, freeSpaceReserve: limits.freeSpaceReserve)
        identifications = PerUserWorkQueue(workers: workers, perUser: limits.concurrentIdentificationsPerUser)
        requests = PerUserWorkQueue(workers: workers, perUser: limits.concurrentRequestsPerUser)
        refusals = RefusalLog(logger: DiagnosticsLevel.logger(label: "coffer.daemon"))
        watcher = try ConnectionWatcher(logger: logger)
    }

    /// Whether the server is shutting down: requests that have not started are no longer answered.
    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Marks the server as shutting down.
    func stop() { stopping.store(true, ordering: .releasing) }
}

/// A flag a connection raises when it closes, read by the work done for it on other threads.
final class ClosedFlag: Sendable {
    private let value = Atomic<Bool>(false)
    /// Whether the connection has closed.
    var isSet: Bool { value.load(ordering: .acquiring) }
    /// Raises the flag.
    func set() { value.store(true, ordering: .releasing) }
}
