import CofferRuntime
import Foundation
import KeychainModel
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One client connection: its socket and who may use it. cofferd's threads share it; every use of the
/// descriptor happens under its lock, and the descriptor is closed under the same lock, so no thread ever
/// uses a number the kernel may have handed to another file.
///
/// Reading belongs to one thread at a time. While the caller is identified, nobody reads (requests wait in
/// the socket's buffer). Then the ``ConnectionWatcher`` watches the socket until it is readable and lends
/// the connection's ``FrameAssembler`` to a worker (``RequestJob``), which reads, answers and looks for the
/// next request before it gives the assembler back and the watcher watches again (``lendReader()``,
/// ``returnReader(_:lastRead:)``).
///
/// Writing belongs to whichever thread produced an answer: it sends at once; what the socket does not take
/// (a large answer, a client slow to read) waits in order, and the watcher sends it when the socket has
/// room (``flush()``), so that answers are never interleaved.
final class Connection: Sendable {
    /// What the connection is doing.
    enum Phase: Sendable {
        /// The caller is being identified.
        case identifying
        /// Requests are answered for this caller.
        case serving(ConnectionCaller)
        /// Closed: bytes are ignored, work done for it is dropped.
        case closed
    }

    /// What became of an answer given to ``write(_:reserved:)``.
    enum Written: Equatable {
        /// Sent whole; its bytes were released.
        case sent
        /// Waits, whole or in part, for room in the socket; its bytes are released once sent.
        case waiting
        /// Not sent: the connection is closed or the socket failed; its bytes were released.
        case failed
    }

    /// What a read without waiting came to.
    enum Received: Equatable {
        /// This many bytes were read into the buffer.
        case bytes(Int)
        /// Nothing to read now.
        case nothing
        /// The peer closed, the socket failed, or the connection is closed.
        case end
    }

    /// An answer, or its remainder, waiting for room in the socket.
    private struct WaitingAnswer {
        var bytes: Data
        var offset: Int
        let reserved: Int
    }

    private struct State {
        var descriptor: Int32
        var phase = Phase.identifying
        /// The frame assembler; nil while lent to a worker.
        var assembler: FrameAssembler? = FrameAssembler()
        /// Whether the watcher watches for requests (serving, and no worker reads).
        var watchingReads = false
        var waiting: [WaitingAnswer] = []
        /// When bytes of a request last arrived (monotonic nanoseconds).
        var lastRead: UInt64
        /// When the watcher is due to look at the connection's time-outs, if it is.
        var checkAt: UInt64?

        var interest: EventPoll.Interest {
            var interest: EventPoll.Interest = []
            if watchingReads { interest.insert(.read) }
            if !waiting.isEmpty { interest.insert(.write) }
            return interest
        }
    }

    /// The connection's number: its token with the watcher, and the session its prompts belong to.
    let number: UInt64
    /// Who connected, as the kernel fixed it at connect.
    let peer: SocketPeer
    /// Raised when the connection closes.
    let closedFlag = ClosedFlag()
    /// Requests running and the last answer, for the idle time-out.
    let activity = ConnectionActivity()
    private let server: ServerContext
    private let state: Mutex<State>

    /// A connection numbered `number` on the accepted, non-blocking `descriptor`, which it now owns.
    init(number: UInt64, descriptor: Int32, peer: SocketPeer, server: ServerContext) {
        self.number = number
        self.peer = peer
        self.server = server
        state = Mutex(State(descriptor: descriptor, lastRead: MonotonicClock.now))
    }

    deinit {
        state.withLock { if $0.descriptor >= 0 { Glibc.close($0.descriptor) } }
    }

    /// Registers the connection with the watcher, watching for hang-ups while its caller is identified.
    func register() throws(UnixSocket.Failure) {
        try state.withLock { state throws(UnixSocket.Failure) in
            guard state.descriptor >= 0 else { return }
            try server.watcher.poll.add(state.descriptor, token: number, interest: [])
        }
    }

    /// The caller, once identified.
    var caller: ConnectionCaller? {
        state.withLock { state in
            if case .serving(let caller) = state.phase { return caller }
            return nil
        }
    }

    /// The caller was identified: requests are read from now on. False when the connection closed meanwhile.
    func identified(as caller: ConnectionCaller) -> Bool {
        state.withLock { state in
            guard case .identifying = state.phase else { return false }
            state.phase = .serving(caller)
            state.watchingReads = true
            rewatch(&state)
            return true
        }
    }

    // MARK: The watcher's side

    /// What the watcher is to do after a registration of this connection was reported.
    enum Readiness: Equatable {
        /// Nothing more.
        case nothing
        /// Lend the reader to a worker: requests (or the end of the stream) wait.
        case read
        /// Close the connection: it hung up before its caller was identified, or an answer could not be sent.
        case close
    }

    /// Takes a reported event (on the watcher's thread): sends waiting answers the socket now has room
    /// for, and says whether a worker is to read.
    func ready(_ event: EventPoll.Event) -> Readiness {
        state.withLock { state in
            guard state.descriptor >= 0 else { return .nothing }
            if event.writable, !sendWaiting(&state) { return .close }
            var readiness = Readiness.nothing
            if event.readable || event.hungUp {
                switch state.phase {
                case .identifying: if event.hungUp { return .close }
                case .serving:
                    if state.watchingReads {
                        state.watchingReads = false
                        readiness = .read
                    }
                case .closed: return .nothing
                }
            }
            // A one-shot registration stays off until someone wants it again: a hang-up while a worker
            // reads is found by that worker's next read.
            if !state.interest.isEmpty { rewatch(&state) }
            return readiness
        }
    }

    // MARK: The reading worker's side

    /// Lends the frame assembler to the worker that is to read; nil when the connection closed.
    func lendReader() -> FrameAssembler? {
        state.withLock { state in
            guard state.descriptor >= 0 else { return nil }
            return state.assembler.take()
        }
    }

    /// Reads what the socket holds, without waiting, into `buffer` (only the worker holding the reader).
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> Received {
        state.withLock { state in
            guard state.descriptor >= 0 else { return .end }
            while true {
                let count = recv(state.descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
                if count > 0 { return .bytes(count) }
                if count == 0 { return .end }
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK ? .nothing : .end
            }
        }
    }

    /// The worker stops reading: the watcher watches for the next request. `lastRead` is when bytes
    /// last arrived (monotonic nanoseconds), or nil if none did. Drops the assembler's partial frame when
    /// the connection closed meanwhile.
    func returnReader(_ assembler: FrameAssembler, lastRead: UInt64?) {
        var assembler = assembler
        let dropped: Int? = state.withLock { state in
            guard state.descriptor >= 0 else { return assembler.discard() }
            if let lastRead { state.lastRead = lastRead }
            let insideFrame = assembler.isInsideFrame
            state.assembler = assembler
            state.watchingReads = true
            rewatch(&state)
            if insideFrame { checkTimeOuts(by: state.lastRead + server.limits.frameTimeout.nanoseconds, &state) }
            return nil
        }
        if let dropped, dropped > 0 { server.bytes.release(dropped, for: peer.uid) }
    }

    // MARK: Answers

    /// Sends an answer's frame (from any thread), or keeps what the socket does not take for the watcher to
    /// send; `reserved` bytes of the caller's budget are released once it is sent or dropped.
    func write(_ bytes: UnsafeRawBufferPointer, reserved: Int) -> Written {
        let written = state.withLock { state -> Written in
            guard state.descriptor >= 0 else { return .failed }
            var offset = 0
            if state.waiting.isEmpty {
                guard let sent = Self.send(state.descriptor, bytes) else { return .failed }
                if sent == bytes.count { return .sent }
                offset = sent
            }
            let wasEmpty = state.waiting.isEmpty
            state.waiting.append(WaitingAnswer(bytes: Data(UnsafeRawBufferPointer(rebasing: bytes[offset...])), offset: 0, reserved: reserved))
            if wasEmpty { rewatch(&state) }
            return .waiting
        }
        if written != .waiting { server.bytes.release(reserved, for: peer.uid) }
        return written
    }

    /// Sends the waiting answers the socket has room for (under the lock); false when the socket failed.
    private func sendWaiting(_ state: inout State) -> Bool {
        while !state.waiting.isEmpty {
            var answer = state.waiting[0]
            let sent = answer.bytes.withUnsafeBytes { bytes in
                Self.send(state.descriptor, UnsafeRawBufferPointer(rebasing: bytes[answer.offset...]))
            }
            guard let sent else { return false }
            answer.offset += sent
            guard answer.offset == answer.bytes.count else {
                state.waiting[0] = answer
                return true
            }
            answer.bytes.resetBytes(in: 0..<answer.bytes.count)
            state.waiting.removeFirst()
            server.bytes.release(answer.reserved, for: peer.uid)
        }
        return true
    }

    /// Sends what the socket takes without waiting; nil when it failed (the peer went away).
    private static func send(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int? {
        var offset = 0
        while offset < bytes.count {
            let sent = Glibc.send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            if sent >= 0 {
                offset += sent
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                break
            } else {
                return nil
            }
        }
        return offset
    }

    // MARK: Time-outs

    /// What the watcher found when it looked at the time-outs.
    enum TimeOutCheck: Equatable {
        /// Nothing to do: closed, or this check was superseded by an earlier one.
        case nothing
        /// Not due yet: look again then.
        case lookAgain(at: UInt64)
        /// Silent inside a frame for ``ResourceLimits/frameTimeout``: to be closed.
        case silentInsideFrame
        /// Idle for ``ResourceLimits/idleTimeout``: to be closed.
        case idle
    }

    /// Looks at the time-outs (on the watcher's thread, for the check scheduled at `scheduled`).
    func checkTimeOuts(scheduled: UInt64, now: UInt64) -> TimeOutCheck {
        state.withLock { state in
            guard state.descriptor >= 0, state.checkAt == scheduled else { return .nothing }
            state.checkAt = nil
            let idleTimeout = server.limits.idleTimeout.nanoseconds
            let due: UInt64
            var insideFrame = false
            if let assembler = state.assembler {
                insideFrame = assembler.isInsideFrame
                if insideFrame {
                    due = state.lastRead + server.limits.frameTimeout.nanoseconds
                } else if activity.requestsRunning > 0 {
                    due = now + idleTimeout  // answering is not idleness
                } else {
                    due = max(state.lastRead, activity.lastAnswered ?? 0) + idleTimeout
                }
            } else {
                due = now + idleTimeout  // a worker is reading
            }
            guard due <= now else {
                state.checkAt = due
                return .lookAgain(at: due)
            }
            return insideFrame ? .silentInsideFrame : .idle
        }
    }

    /// Schedules the first time-out check (at registration).
    func scheduleFirstCheck() {
        state.withLock { state in
            checkTimeOuts(by: state.lastRead + server.limits.idleTimeout.nanoseconds, &state)
        }
    }

    /// Makes sure the watcher looks at the time-outs no later than `due` (under the lock). Checks are not
    /// moved on every read: one that comes early finds the activity since and schedules the next.
    private func checkTimeOuts(by due: UInt64, _ state: inout State) {
        if let checkAt = state.checkAt, checkAt <= due { return }
        state.checkAt = due
        server.watcher.lookAtTimeOuts(of: number, at: due)
    }

    // MARK: Closing

    /// Closes the connection (from any thread; idempotent): releases what it held, withdraws its prompts
    /// and forgets it. Answers still waiting are first sent if the socket takes them now.
    func close() {
        let closing = state.withLock { state -> (phase: Phase, held: Int)? in
            guard state.descriptor >= 0 else { return nil }
            _ = sendWaiting(&state)
            let phase = state.phase
            state.phase = .closed
            closedFlag.set()
            server.watcher.poll.remove(state.descriptor)
            Self.discardUnread(state.descriptor)
            Glibc.close(state.descriptor)
            state.descriptor = -1
            var held = state.assembler?.discard() ?? 0
            state.assembler = nil
            for var answer in state.waiting {
                answer.bytes.resetBytes(in: 0..<answer.bytes.count)
                held += answer.reserved
            }
            state.waiting = []
            return (phase, held)
        }
        guard let closing else { return }
        if closing.held > 0 { server.bytes.release(closing.held, for: peer.uid) }
        server.connections.release(peer.uid)
        server.watcher.forget(number)
        if case .serving(let caller) = closing.phase, case .keychain(let keychain, let origin, _) = caller.serving {
            // Withdraws this connection's prompts (which may answer other connections) and ends its session.
            server.requests.submit(for: peer.uid) {
                keychain.prompts.connectionClosed(origin.connection)
                keychain.owners.connectionClosed(origin.connection)
                keychain.service.endSession(origin.connection)
            }
        }
    }

    /// Reads and drops what the peer sent and nobody read (at most 256 KiB): a Unix socket closed with unread
    /// bytes makes the peer's next read fail with `ECONNRESET`, where a client is owed the end of the stream.
    private static func discardUnread(_ descriptor: Int32) {
        withUnsafeTemporaryAllocation(byteCount: 4_096, alignment: 16) { buffer in
            defer { buffer.zeroize() }
            for _ in 0..<64 {
                guard recv(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT)) > 0 else { return }
            }
        }
    }

    /// Changes the one-shot registration to the interest the state asks (under the lock).
    private func rewatch(_ state: inout State) {
        guard state.descriptor >= 0 else { return }
        do {
            try server.watcher.poll.change(state.descriptor, token: number, interest: state.interest)
        } catch {
            server.logger.error("cannot watch a connection: \(error)", metadata: ["uid": "\(peer.uid)", "pid": "\(peer.pid)"])
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds (negative durations count as zero).
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
