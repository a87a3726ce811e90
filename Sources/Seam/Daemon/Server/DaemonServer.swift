import ProgramIdentity
import CofferDiagnostics
import CofferRuntime
import Foundation
import KeychainService
import Logging
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The socket server, event-driven on SwiftNIO: one event loop thread carries every connection's
/// requests, and the requests run on the daemon's worker threads, never on the loop; the worker that
/// answers a request writes the answer itself (``WorkerSocket``). A thread of its own accepts the
/// connections (``ConnectionAcceptor``) and hands them to the loop. Each caller is identified
/// once, off the loop, before its first request is answered; a malformed frame closes that connection
/// only. ``ResourceLimits`` bound what one user may hold, so that no user can starve another.
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
    private let listening = Mutex<ConnectionAcceptor?>(nil)
    private let stopRequested = Atomic<Bool>(false)

    /// A server for `configuration`.
    public init(configuration: DaemonConfiguration) {
        self.configuration = configuration
        keychains = UserKeychains(mode: configuration.mode)
    }

    /// Listens (or adopts the socket systemd passed, `LISTEN_FDS`) and serves until ``shutdown()``; throws
    /// ``DaemonError/socketInUse(_:)``, touching nothing, when another cofferd serves the socket (``ListenerLock``).
    public func run(inheritedSocket: Int32? = nil) throws {
        let lock = try ListenerLock(socketPath: configuration.socketPath)
        defer { lock.release() }
        let limits = configuration.limits
        let descriptorLimit = FileDescriptorLimit.raiseSoftToHard()
        let connectionCap = limits.maximumConnections ?? FileDescriptorLimit.connectionCap(forDescriptorLimit: descriptorLimit)
        let server = ServerContext(
            keychains: keychains, mode: configuration.mode,
            identifier: PeerIdentifier(trustedFrontEndGroup: configuration.trustedFrontEndGroup), limits: limits,
            connectionCap: connectionCap, workers: workers)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer {
            // Workers still running (a request that waited on a person, a socket being polled) must not
            // wake a loop being torn down.
            server.loopHandOff.close()
            try? group.syncShutdownGracefully()
        }
        let descriptor = try inheritedSocket ?? UnixSocket.listen(at: configuration.socketPath, mode: socketMode, backlog: 4_096)
        let acceptor: ConnectionAcceptor
        do {
            acceptor = try ConnectionAcceptor(listening: descriptor, logger: logger)
        } catch {
            close(descriptor)
            throw error
        }
        acceptor.start { [logger] socket in
            // The workers write answers to a duplicate, which stays valid until the handler closes it.
            let duplicate = fcntl(socket, F_DUPFD_CLOEXEC, 0)
            guard duplicate >= 0 else {
                logger.warning("refused a connection: no descriptor left to write its answers to (errno \(errno))")
                close(socket)
                return
            }
            let writer = WorkerSocket(descriptor: duplicate)
            ClientBootstrap(group: group)
                // Small reads into a fixed buffer: an idle connection keeps at most 8 KiB of receive buffer,
                // and a large frame is copied into its own buffer as it arrives.
                .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 8_192))
                .channelOption(.maxMessagesPerRead, value: 4)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ConnectionHandler(server: server, writer: writer))
                    }
                }
                .withConnectedSocket(socket)
                .whenFailure { error in
                    writer.close()
                    logger.warning("refused a connection that could not be registered: \(error)")
                }
        }
        listening.withLock { $0 = acceptor }
        logger.notice(
            "cofferd listening",
            metadata: [
                "socket": "\(configuration.socketPath)", "maximumConnections": "\(connectionCap)",
                "connectionsPerUser": "\(limits.connectionsPerUser)", "bytesInFlightPerUser": "\(limits.bytesInFlightPerUser)",
                "storedBytesPerUser": "\(limits.storedBytesPerUser)",
            ])
        let autoLock = configuration.autoLockAfter.map { interval in
            let period = min(Duration.seconds(1), interval / 4 + .milliseconds(50))
            return group.next().scheduleRepeatedTask(initialDelay: TimeAmount(period), delay: TimeAmount(period)) { [keychains, workers] _ in
                // Locking may wait for a keystore operation in progress: never on the event loop.
                workers.submit { keychains.lockIdle(after: interval) }
            }
        }
        let presence = inheritedSocket == nil ? SocketPresence(path: configuration.socketPath) : nil
        let presenceWatch = presence.map { watch($0, on: group.next()) }
        if stopRequested.load(ordering: .acquiring) { acceptor.stop() }
        acceptor.waitUntilFinished()
        close(descriptor)
        autoLock?.cancel()
        presenceWatch?.cancel()
        server.stop()
        waitForRequestsInFlight(server)
        let closing = server.openChannels.map { $0.close() }
        for future in closing { try? future.wait() }
        keychains.closeAll()
        if presence?.isStillThere == true { unlink(configuration.socketPath) }
        logger.notice("cofferd stopped")
    }

    /// Stops the server when the socket file it made disappears or is replaced (checked every 2 s).
    private func watch(_ presence: SocketPresence, on loop: any EventLoop) -> RepeatedTask {
        loop.scheduleRepeatedTask(initialDelay: .seconds(2), delay: .seconds(2)) { [self] task in
            guard !presence.isStillThere else { return }
            logger.notice("the socket was removed; stopping", metadata: ["socket": "\(configuration.socketPath)"])
            task.cancel()
            shutdown()
        }
    }

    /// Stops accepting; requests already running finish, then every connection is closed.
    public func shutdown() {
        stopRequested.store(true, ordering: .releasing)
        listening.withLock { $0 }?.stop()
    }

    private var socketMode: mode_t {
        switch configuration.mode {
        case .system: 0o666
        case .user: 0o600
        }
    }

    /// Waits (at most 10 s) for the requests being answered to finish; their answers are then queued on
    /// the event loop ahead of the closing of their connections.
    private func waitForRequestsInFlight(_ server: ServerContext) {
        let deadline = ContinuousClock.now + .seconds(10)
        while server.inFlight.load(ordering: .relaxed) > 0, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}
