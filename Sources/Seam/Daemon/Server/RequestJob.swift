import Foundation
import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// Reads and answers one connection's requests on a worker thread (at most
/// ``ResourceLimits/concurrentRequestsPerUser`` jobs of one uid at once, ``PerUserWorkQueue``), from the
/// moment the watcher finds them waiting until none has come for ``pollFor``; then the watcher watches the
/// connection again.
///
/// Looking for the next request before letting go is what makes a client that sends its next request at
/// once (most do) cheap to serve: the worker that is already running reads and answers it, and no thread
/// is woken. It lasts at most ``pollFor`` after the last bytes, one worker at a time
/// (``ServerContext/workerPolling``), yielding the core on each look, and stops at once when another job of
/// the same uid waits for a slot, the connection closes or the server stops.
struct RequestJob: Sendable {
    /// How long a worker looks for the next request before it lets the connection go.
    static let pollFor = Duration.microseconds(200)

    /// The server's shared state.
    let server: ServerContext
    /// The connection.
    let connection: Connection
    /// Its identified caller.
    let caller: ConnectionCaller

    /// Has a worker read `connection`'s requests (the watcher found them waiting).
    static func read(_ connection: Connection, server: ServerContext) {
        guard let caller = connection.caller else { return }
        let job = RequestJob(server: server, connection: connection, caller: caller)
        server.requests.submit(for: caller.uid) { job.readAndAnswer() }
    }

    /// Reads what the socket holds and answers it, looks for more for ``pollFor``, then gives the reader
    /// back. Several frames read at once are split in two: the second half goes to another job, so that two
    /// threads answer them.
    private func readAndAnswer() {
        guard var assembler = connection.lendReader() else { return }
        let uid = caller.uid
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8_192, alignment: 16)
        var lastRead: UInt64?
        var pollingUntil: UInt64?
        var polling = false
        defer {
            // Requests may hold secrets (a password being added, a passcode).
            buffer.zeroize()
            buffer.deallocate()
            if polling { server.workerPolling.store(false, ordering: .releasing) }
            connection.returnReader(assembler, lastRead: lastRead)
        }
        reading: while true {
            switch connection.receive(into: buffer) {
            case .end:
                connection.close()
                break reading
            case .bytes(let count):
                lastRead = MonotonicClock.now
                pollingUntil = nil
                var frames: [FrameAssembler.Frame] = []
                let budget = server.bytes
                var refusal: FrameAssembler.Refusal?
                do throws(FrameAssembler.Refusal) {
                    try assembler.consume(
                        UnsafeRawBufferPointer(rebasing: buffer[..<count]), reserve: { budget.reserve($0, for: uid) }, into: &frames)
                } catch {
                    refusal = error
                }
                if !frames.isEmpty {
                    let half = (frames.count + 1) / 2
                    if frames.count > half { submit(Array(frames.dropFirst(half))) }
                    started(half)
                    answer(frames.prefix(half).map { (payload: PayloadHandOff($0.payload), length: $0.reserved) })
                }
                if let refusal {
                    report(refusal)
                    connection.close()
                    break reading
                }
            case .nothing:
                let now = MonotonicClock.now
                if connection.closedFlag.isSet || server.isStopping || server.requests.hasWaiting(for: uid) { break reading }
                if let pollingUntil {
                    if now >= pollingUntil { break reading }
                } else {
                    // Only one worker polls at a time, so that polling never takes more than one core.
                    guard polling || server.workerPolling.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
                    else { break reading }
                    polling = true
                    pollingUntil = now + Self.pollFor.nanoseconds
                }
                sched_yield()
            }
        }
    }

    /// Hands `frames` to another job, answered in order.
    private func submit(_ frames: [FrameAssembler.Frame]) {
        started(frames.count)
        let requests = frames.map { (payload: PayloadHandOff($0.payload), length: $0.reserved) }
        server.requests.submit(for: caller.uid) { [self] in answer(requests) }
    }

    /// Counts `count` requests as being answered, for the idle time-out and for shutdown.
    private func started(_ count: Int) {
        connection.activity.started(count)
        server.inFlight.add(count, ordering: .relaxed)
    }

    private func answer(_ requests: [(payload: PayloadHandOff, length: Int)]) {
        let uid = caller.uid
        let delivery = AnswerDelivery(server: server, connection: connection)
        for request in requests {
            RequestAnswering.answer(request.payload, length: request.length, caller: caller, server: server, closed: connection.closedFlag) {
                outcome in
                delivery.deliver(outcome)
            }
            // The request's bytes are decoded and gone; a request waiting on a person is no longer in
            // flight (its answer, when it comes, is sent if the connection is still open).
            server.bytes.release(request.length, for: uid)
            server.inFlight.subtract(1, ordering: .relaxed)
        }
    }

    /// Logs why bytes were refused (the connection is then closed).
    private func report(_ refusal: FrameAssembler.Refusal) {
        let peer = connection.peer
        switch refusal {
        case .malformed(let error):
            server.logger.notice(
                "closing a connection after a malformed frame", metadata: ["reason": "\(error)", "uid": "\(peer.uid)", "pid": "\(peer.pid)"])
        case .overBudget(let frameLength):
            let budget = server.bytes
            server.refusals.refused(
                "bytes in flight", uid: peer.uid, pid: peer.pid,
                reason: """
                    a frame of \(frameLength) bytes does not fit: this user has \(budget.used(by: peer.uid)) of \
                    \(budget.perUser) bytes in flight (\(budget.usedInAll) of \(budget.total) for all users); the connection is closed
                    """)
        }
    }
}
