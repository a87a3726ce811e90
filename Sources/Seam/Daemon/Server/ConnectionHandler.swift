import ProgramIdentity
import Foundation
import Logging
import NIOCore

/// One client connection on the event loop: admits it under the per-uid and global connection caps,
/// has its caller identified off the loop, reassembles its frames within the caller's byte budget and
/// hands each request to the worker threads. The worker that answers a request writes the answer to the
/// socket itself (``WorkerSocket``), in the order answers are ready, without waking the event loop; the
/// loop writes only what the socket did not take at once. After a read that ends on a frame boundary
/// while requests run, the loop lends the socket to the worker that finishes last (``ReadLease``), which
/// reads and answers the next requests itself for a short while (``RequestJob``) before giving it back.
///
/// Requests that arrive before the caller is identified wait (their bytes stay reserved). A connection
/// is closed when a frame is malformed or does not fit the budget, when it stays silent inside a frame
/// for ``ResourceLimits/frameTimeout``, or idle for ``ResourceLimits/idleTimeout``. Everything here runs on
/// the channel's event loop and never blocks it.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum Phase {
        /// Waiting for the kernel's credentials (only until `channelActive` has read them).
        case connecting
        /// The caller is being identified; frames received meanwhile wait.
        case identifying(waiting: [FrameAssembler.Frame])
        /// Requests are answered.
        case serving(ConnectionCaller)
        /// Closed or closing: bytes are ignored, work done for it is dropped.
        case closed
    }

    private let server: ServerContext
    private let writer: WorkerSocket
    private let activity = ConnectionActivity()
    private let lease = ReadLease()
    private var phase = Phase.connecting
    private var peer: SocketPeer?
    private var admitted = false
    private var assembler = FrameAssembler()
    private let closedFlag = ClosedFlag()
    private var context: ChannelHandlerContext?
    private var lastActivity = NIODeadline.now()
    private var timer: Scheduled<Void>?
    private var timerDeadline: NIODeadline?

    /// A handler for one connection of `server`, whose answers `writer` writes.
    init(server: ServerContext, writer: WorkerSocket) {
        self.server = server
        self.writer = writer
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        writer.close()
    }

    func channelActive(context: ChannelHandlerContext) {
        SocketPeer.read(from: context.channel) { [self] result in
            switch result {
            case .success(let peer): admit(peer, context: context)
            case .failure(let error):
                server.logger.warning("refused a connection whose credentials cannot be read: \(error)")
                close(context)
            }
        }
        context.fireChannelActive()
    }

    private func admit(_ peer: SocketPeer, context: ChannelHandlerContext) {
        self.peer = peer
        if let refusal = server.connections.admit(peer.uid) {
            let reason =
                switch refusal {
                case .userCap(let cap): "this user already holds \(cap) connections, the most one user may"
                case .globalCap(let cap): "the daemon already holds \(cap) connections, the most it serves at once"
                }
            server.refusals.refused("connections", uid: peer.uid, pid: peer.pid, reason: reason)
            peer.closePidfd()
            close(context)
            return
        }
        admitted = true
        server.opened(context.channel)
        if server.isStopping {
            peer.closePidfd()
            close(context)
            return
        }
        phase = .identifying(waiting: [])
        identify(peer, on: context.eventLoop)
        armTimer()
    }

    /// Identifies the caller on a worker thread; the result comes back to the event loop.
    private func identify(_ peer: SocketPeer, on eventLoop: any EventLoop) {
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        let server = server
        let closed = closedFlag
        server.identifications.submit(for: peer.uid) {
            let outcome: Result<ConnectionCaller, any Error>
            if closed.isSet || server.isStopping {
                peer.closePidfd()
                outcome = .failure(DaemonError.unidentifiablePeer("the connection closed before its caller was identified"))
            } else {
                let credentials = PeerCredentials(pid: peer.pid, uid: peer.uid, gid: peer.gid, pidfd: peer.pidfd)
                // The identity is fixed at connect: the pidfd is not needed once it is known.
                defer { credentials.close() }
                outcome = Result {
                    let keychain = try server.keychains.keychain(for: peer.uid)
                    let program = try identifyCaller(
                        credentials, of: keychain, with: server.identifier, mode: server.mode, isAbandoned: { closed.isSet })
                    return ConnectionCaller(
                        keychain: keychain, program: program, pid: peer.pid,
                        connection: server.connectionNumbers.add(1, ordering: .relaxed).newValue, mode: server.mode)
                }
            }
            server.loopHandOff.execute(on: eventLoop) { bound.value.identified(outcome) }
        }
    }

    private func identified(_ outcome: Result<ConnectionCaller, any Error>) {
        guard case .identifying(let waiting) = phase, let context else { return }
        switch outcome {
        case .success(let caller):
            phase = .serving(caller)
            dispatch(waiting, caller: caller, context: context)
        case .failure(let error):
            for frame in waiting { server.bytes.release(frame.reserved, for: peer!.uid) }
            phase = .identifying(waiting: [])
            server.logger.warning("refused a connection: \(error)", metadata: ["uid": "\(peer!.uid)", "pid": "\(peer!.pid)"])
            close(context)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        guard let peer else { return }
        switch phase {
        case .closed, .connecting: return
        case .identifying, .serving: break
        }
        lastActivity = .now()
        var frames: [FrameAssembler.Frame] = []
        let budget = server.bytes
        let refusal: FrameAssembler.Refusal? = buffer.withUnsafeReadableBytes { bytes in
            do throws(FrameAssembler.Refusal) {
                try assembler.consume(bytes, reserve: { budget.reserve($0, for: peer.uid) }, into: &frames)
                return nil
            } catch {
                return error
            }
        }
        received(frames, context: context)
        if let refusal { refused(refusal, peer: peer, context: context) } else { armTimer() }
    }

    /// Closes the connection after bytes that break the frame format or do not fit the budget.
    private func refused(_ refusal: FrameAssembler.Refusal, peer: SocketPeer, context: ChannelHandlerContext) {
        let budget = server.bytes
        switch refusal {
        case .malformed(let error):
            server.logger.notice(
                "closing a connection after a malformed frame",
                metadata: [
                    "reason": "\(error)", "uid": "\(peer.uid)", "pid": "\(peer.pid)",
                ])
            close(context)
        case .overBudget(let frameLength):
            server.refusals.refused(
                "bytes in flight", uid: peer.uid, pid: peer.pid,
                reason: """
                    a frame of \(frameLength) bytes does not fit: this user has \(budget.used(by: peer.uid)) of \
                    \(budget.perUser) bytes in flight (\(budget.usedInAll) of \(budget.total) for all users); the connection is closed
                    """)
            close(context)
        }
    }

    private func received(_ frames: [FrameAssembler.Frame], context: ChannelHandlerContext) {
        guard !frames.isEmpty else { return }
        switch phase {
        case .identifying(let waiting):
            phase = .identifying(waiting: waiting + frames)
        case .serving(let caller):
            dispatch(frames, caller: caller, context: context)
        case .closed, .connecting:
            for frame in frames { server.bytes.release(frame.reserved, for: peer!.uid) }
        }
    }

    /// Hands requests to the worker threads, which write their answers. Several read at
    /// once are split in two jobs, each answering its half in order: two threads work on them together,
    /// for two hand-offs rather than one per request.
    private func dispatch(_ frames: [FrameAssembler.Frame], caller: ConnectionCaller, context: ChannelHandlerContext) {
        let half = (frames.count + 1) / 2
        for group in [frames.prefix(half), frames.dropFirst(half)] where !group.isEmpty {
            dispatchInOrder(Array(group), caller: caller, context: context)
        }
    }

    private func dispatchInOrder(_ frames: [FrameAssembler.Frame], caller: ConnectionCaller, context: ChannelHandlerContext) {
        let loop = NIOLoopBound(self, eventLoop: context.eventLoop)
        let delivery = AnswerDelivery(server: server, writer: writer, activity: activity, uid: caller.keychain.uid, loop: loop)
        let job = RequestJob(
            server: server, caller: caller, closed: closedFlag, delivery: delivery, lease: lease,
            giveBack: { [server] polled, refusal in
                server.loopHandOff.execute(on: loop.eventLoop) { loop.value.tookBackSocket(polled, refusal: refusal) }
            })
        job.submit(frames)
    }

    /// At the end of a read that left no partial frame, while requests run: the worker that finishes
    /// last polls the socket for the next request (``RequestJob``), and the loop stops reading until it
    /// gives the socket back.
    func channelReadComplete(context: ChannelHandlerContext) {
        defer { context.fireChannelReadComplete() }
        // Not while another connection's worker polls: only one may, and a lease it could not use would
        // cost a wakeup of the loop to take the socket back.
        guard case .serving = phase, !assembler.isInsideFrame, lease.mayOffer, !server.workerPolling.load(ordering: .relaxed),
            let options = context.channel.syncOptions
        else { return }
        // Reading stops before the offer, so that the worker taking it never reads alongside the loop.
        guard (try? options.setOption(ChannelOptions.autoRead, value: false)) != nil else { return }
        if !lease.offer() { try? options.setOption(ChannelOptions.autoRead, value: true) }
    }

    /// The worker that polled gives the socket back: the loop reads again, from where it stopped.
    private func tookBackSocket(_ polled: FrameAssembler, refusal: FrameAssembler.Refusal?) {
        var polled = polled
        guard case .serving = phase, let context, let peer else {
            let partial = polled.discard()
            if partial > 0, let peer { server.bytes.release(partial, for: peer.uid) }
            return
        }
        // The loop read nothing while the worker held the socket: its assembler is empty.
        assembler = polled
        lastActivity = .now()
        if let refusal { return refused(refusal, peer: peer, context: context) }
        armTimer()
        try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
    }

    /// Writes, on the event loop, an answer (or its remainder) the socket did not take from the worker.
    func writeHandedOff(_ buffer: ByteBuffer, reserved: Int, uid: UInt32) {
        let (server, writer) = (server, writer)
        guard case .serving = phase, let context, context.channel.isActive else {
            writer.handedOffWriteFinished()
            server.bytes.release(reserved, for: uid)
            return
        }
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in
            writer.handedOffWriteFinished()
            server.bytes.release(reserved, for: uid)
        }
    }

    /// Closes the connection after a malformed request, or after the socket refused an answer.
    func closeAfterAnswer(malformed reason: String?, uid: UInt32) {
        if let reason {
            server.logger.notice(
                "closing a connection after a malformed request",
                metadata: [
                    "reason": "\(reason)", "uid": "\(uid)", "pid": "\(peer?.pid ?? 0)",
                ])
        }
        if let context { close(context) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        closedFlag.set()
        writer.close()
        timer?.cancel()
        timer = nil
        if let peer {
            let partial = assembler.discard()
            if partial > 0 { server.bytes.release(partial, for: peer.uid) }
            switch phase {
            case .identifying(let waiting):
                for frame in waiting { server.bytes.release(frame.reserved, for: peer.uid) }
            case .serving(let caller):
                // Withdraws this connection's prompts (which may answer other connections): off the loop.
                server.requests.submit(for: peer.uid) {
                    caller.keychain.prompts.connectionClosed(caller.origin.connection)
                    caller.keychain.owners.connectionClosed(caller.origin.connection)
                    caller.keychain.service.endSession(caller.origin.connection)
                }
            case .connecting, .closed:
                break
            }
            if admitted {
                server.connections.release(peer.uid)
                server.closed(context.channel)
                admitted = false
            }
        }
        phase = .closed
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        server.logger.debug("closing a connection after an error: \(error)")
        close(context)
    }

    private func close(_ context: ChannelHandlerContext) {
        context.close(promise: nil)
    }

    // MARK: Time-outs

    /// When the connection is due to be closed: silence inside a frame, or idleness since the last
    /// request or answer (not while requests are being answered: ``timerFired()`` then looks again later).
    private var deadline: NIODeadline? {
        if assembler.isInsideFrame { return lastActivity + TimeAmount(server.limits.frameTimeout) }
        switch phase {
        case .serving, .identifying:
            return max(lastActivity, activity.lastAnswered ?? lastActivity) + TimeAmount(server.limits.idleTimeout)
        case .connecting, .closed:
            return nil
        }
    }

    /// Makes sure a timer fires no later than the deadline. Timers are not moved on every read: one that
    /// fires early finds activity since and sets itself again.
    private func armTimer() {
        guard let deadline, let context else { return }
        if let timerDeadline, timerDeadline <= deadline { return }
        timer?.cancel()
        timerDeadline = deadline
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) { bound.value.timerFired() }
    }

    private func timerFired() {
        timer = nil
        timerDeadline = nil
        guard let context else { return }
        switch phase {
        case .closed, .connecting: return
        case .identifying, .serving: break
        }
        guard let deadline else { return }
        guard deadline <= .now() else { return armTimer() }
        if !assembler.isInsideFrame, activity.requestsRunning > 0 {
            // Requests are being answered (the workers do not wake the loop to say so): not idle.
            lastActivity = .now()
            return armTimer()
        }
        let metadata: Logger.Metadata = ["uid": "\(peer?.uid ?? 0)", "pid": "\(peer?.pid ?? 0)"]
        if assembler.isInsideFrame {
            server.logger.notice("closing a connection silent in the middle of a frame", metadata: metadata)
        } else {
            server.logger.debug("closing an idle connection", metadata: metadata)
        }
        close(context)
    }
}
