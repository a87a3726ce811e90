import ProgramIdentity
import CofferDiagnostics
import CofferRuntime
import Foundation
import KeychainService
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The socket server, on threads alone: one thread watches the listening socket, the connections no worker
/// is busy with, and the time-outs (``ConnectionWatcher``); the daemon's worker threads read a connection's
/// requests once the watcher finds them waiting, answer them, send each answer themselves, and look for the
/// next request before they let the connection go (``RequestJob``). Each caller is identified once, on a
/// worker, before its first request is read; a malformed frame closes that connection only.
/// ``ResourceLimits`` bound what one user may hold, so that no user can starve another.
///
/// Shutdown (``shutdown()``, on SIGTERM) stops accepting; requests already running finish and are
/// answered, requests not started are dropped; then every connection is closed and every keychain
/// dropped, so that their keys are zeroized.
public final class DaemonServer: Sendable {
    /// The configuration.
    public let configuration: DaemonConfiguration
    /// The keychains, by uid.
    public let keychains: UserKeychains
    /// The threads requests and identifications run on. A thread that answered a request looks for the
    /// next one for 200 µs before it sleeps, as the thread-per-connection server polled for a client's
    /// next request: waking a thread costs tens of microseconds here, more than a find takes.
    private let workers = WorkerThreads(spinBeforeSleeping: .microseconds(200))
    private let logger = DiagnosticsLevel.logger(label: "coffer.daemon")
    private let stopRequested = Atomic<Bool>(false)
    /// Signalled by ``shutdown()``; the thread in ``run(inheritedSocket:)`` waits on it between its chores.
    private let stopSignal = DispatchSemaphore(value: 0)

    /// A server for `configuration`.
    public init(configuration: DaemonConfiguration) {
        self.configuration = configuration
        keychains = UserKeychains(mode: configuration.mode, tpm: configuration.tpm)
    }

    /// Listens (or adopts the socket systemd passed, `LISTEN_FDS`) and serves until ``shutdown()``; throws
    /// ``DaemonError/socketInUse(_:)``, touching nothing, when another cofferd serves the socket (``ListenerLock``).
    public func run(inheritedSocket: Int32? = nil) throws {
        let lock = try ListenerLock(socketPath: configuration.socketPath)
        defer { lock.release() }
        let limits = configuration.limits
        let descriptorLimit = FileDescriptorLimit.raiseSoftToHard()
        let connectionCap = limits.maximumConnections ?? FileDescriptorLimit.connectionCap(forDescriptorLimit: descriptorLimit)
        let server = try ServerContext(
            keychains: keychains, mode: configuration.mode,
            identifier: PeerIdentifier(trustedFrontEndGroup: configuration.trustedFrontEndGroup), limits: limits,
            connectionCap: connectionCap, workers: workers)
        let descriptor = try inheritedSocket ?? UnixSocket.listen(at: configuration.socketPath, mode: socketMode, backlog: 4_096)
        do {
            let flags = fcntl(descriptor, F_GETFL)
            guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else { throw DaemonError.system("fcntl", errno) }
            let admission = ConnectionAdmission(server: server)
            try server.watcher.start(
                listening: descriptor, accepted: admission.accepted, readable: { RequestJob.read($0, server: server) },
                failed: { [self] in shutdown() })
        } catch {
            close(descriptor)
            throw error
        }
        logger.notice(
            "cofferd listening",
            metadata: [
                "socket": "\(configuration.socketPath)", "maximumConnections": "\(connectionCap)",
                "connectionsPerUser": "\(limits.connectionsPerUser)", "bytesInFlightPerUser": "\(limits.bytesInFlightPerUser)",
                "storedBytesPerUser": "\(limits.storedBytesPerUser)",
            ])
        if case .user(_, let owner) = configuration.mode {
            // Opened now rather than at the first request, so that a keychain that syncs starts syncing at once.
            _ = try? keychains.keychain(for: owner)
        }
        let presence = inheritedSocket == nil ? SocketPresence(path: configuration.socketPath) : nil
        runChores(presence: presence)
        server.watcher.stopAccepting()
        close(descriptor)
        server.stop()
        waitForRequestsInFlight(server)
        for connection in server.watcher.openConnections { connection.close() }
        server.watcher.stop()
        keychains.closeAll()
        if presence?.isStillThere == true { unlink(configuration.socketPath) }
        logger.notice("cofferd stopped")
    }

    /// Until ``shutdown()``: locks idle keychains (when ``DaemonConfiguration/autoLockAfter`` is set) and
    /// stops the server when the socket file it made disappears or is replaced (checked every 2 s). With
    /// neither to do, it sleeps until shutdown.
    private func runChores(presence: SocketPresence?) {
        let lockEvery = configuration.autoLockAfter.map { min(Duration.seconds(1), $0 / 4 + .milliseconds(50)) }
        let presenceEvery = presence.map { _ in Duration.seconds(2) }
        let clock = ContinuousClock()
        var nextLock = lockEvery.map { clock.now + $0 }
        var nextPresence = presenceEvery.map { clock.now + $0 }
        while !stopRequested.load(ordering: .acquiring) {
            if let next = [nextLock, nextPresence].compactMap({ $0 }).min() {
                let wait = max(.zero, next - clock.now)
                _ = stopSignal.wait(timeout: .now() + .nanoseconds(Int(clamping: wait.nanoseconds)))
            } else {
                stopSignal.wait()
            }
            if stopRequested.load(ordering: .acquiring) { return }
            if let interval = configuration.autoLockAfter, let due = nextLock, let every = lockEvery, clock.now >= due {
                // Locking may wait for a keystore operation in progress: on a worker.
                workers.submit { [keychains] in keychains.lockIdle(after: interval) }
                nextLock = clock.now + every
            }
            if let presence, let due = nextPresence, let every = presenceEvery, clock.now >= due {
                guard presence.isStillThere else {
                    logger.notice("the socket was removed; stopping", metadata: ["socket": "\(configuration.socketPath)"])
                    return
                }
                nextPresence = clock.now + every
            }
        }
    }

    /// Stops accepting; requests already running finish, then every connection is closed.
    public func shutdown() {
        stopRequested.store(true, ordering: .releasing)
        stopSignal.signal()
    }

    private var socketMode: mode_t {
        switch configuration.mode {
        case .system: 0o666
        case .user: 0o600
        }
    }

    /// Waits (at most 10 s) for the requests being answered to finish; their answers are sent (or wait in
    /// their connections, which send what the socket takes as they close).
    private func waitForRequestsInFlight(_ server: ServerContext) {
        let deadline = ContinuousClock.now + .seconds(10)
        while server.inFlight.load(ordering: .relaxed) > 0, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}
