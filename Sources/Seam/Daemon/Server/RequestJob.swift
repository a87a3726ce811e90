import Foundation
import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// Runs one connection's requests on the worker threads (at most ``ResourceLimits/concurrentRequestsPerUser``
/// jobs of one uid at once, ``PerUserWorkQueue``), and, when the job that finishes holds the connection's
/// ``ReadLease``, polls the socket for the next request before giving it back to the event loop.
///
/// Polling is what the thread-per-connection server did for the next request: a client that sends its
/// next request at once (most do) has it read and answered by the worker that is already running, with
/// no thread woken. It lasts at most ``pollFor`` after the last request, one worker at a time
/// (``ServerContext/workerPolling``), yielding the core on each look, and stops at once when another job
/// of the same uid waits for a slot, the connection closes or the server stops.
struct RequestJob: Sendable {
    /// How long a worker holding the read lease looks for the next request before giving it back.
    static let pollFor = Duration.microseconds(200)

    /// The server's shared state.
    let server: ServerContext
    /// The identified caller of the connection.
    let caller: ConnectionCaller
    /// Raised when the connection closes.
    let closed: ClosedFlag
    /// Writes the answers.
    let delivery: AnswerDelivery
    /// Who reads the socket.
    let lease: ReadLease
    /// Gives the socket back to the event loop, with the frame the polling left partial and, when the
    /// bytes polled were refused, why (the connection is then closed).
    let giveBack: @Sendable (FrameAssembler, FrameAssembler.Refusal?) -> Void

    /// Hands `frames` to the workers as one job, answered in order.
    func submit(_ frames: [FrameAssembler.Frame]) {
        delivery.activity.started(frames.count)
        server.inFlight.add(frames.count, ordering: .relaxed)
        lease.jobStarted()
        let requests = frames.map { (payload: PayloadHandOff($0.payload), length: $0.reserved) }
        server.requests.submit(for: caller.keychain.uid) { [self] in
            answer(requests)
            if lease.jobFinished() { poll() }
        }
    }

    private func answer(_ requests: [(payload: PayloadHandOff, length: Int)]) {
        let uid = caller.keychain.uid
        for request in requests {
            RequestAnswering.answer(request.payload, length: request.length, caller: caller, server: server, closed: closed) { outcome in
                delivery.deliver(outcome)
            }
            // The request's bytes are decoded and gone; a request waiting on a person is no longer in
            // flight (its answer, when it comes, is written if the connection is still open).
            server.bytes.release(request.length, for: uid)
            server.inFlight.subtract(1, ordering: .relaxed)
        }
    }

    /// Reads and answers the connection's next requests until none has come for ``pollFor``, then gives
    /// the socket back. Several frames read at once are split as the loop splits them: the second half
    /// goes to another job, so that two threads work on them.
    private func poll() {
        var assembler = FrameAssembler()
        var refusal: FrameAssembler.Refusal?
        defer {
            lease.giveBack()
            giveBack(assembler, refusal)
        }
        guard server.workerPolling.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
        defer { server.workerPolling.store(false, ordering: .releasing) }
        let uid = caller.keychain.uid
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8_192, alignment: 16)
        defer {
            // Requests may hold secrets (a password being added, a passcode).
            buffer.zeroize()
            buffer.deallocate()
        }
        var end = ContinuousClock.now + Self.pollFor
        polling: while !closed.isSet, !server.isStopping, !server.requests.hasWaiting(for: uid) {
            switch delivery.writer.receive(into: buffer) {
            case .nothing:
                if ContinuousClock.now >= end { break polling }
                sched_yield()
            case .end:
                break polling  // the loop finds out what happened when it reads again
            case .bytes(let count):
                var frames: [FrameAssembler.Frame] = []
                let budget = server.bytes
                do throws(FrameAssembler.Refusal) {
                    try assembler.consume(
                        UnsafeRawBufferPointer(rebasing: buffer[..<count]), reserve: { budget.reserve($0, for: uid) }, into: &frames)
                } catch {
                    refusal = error
                }
                if !frames.isEmpty {
                    let half = (frames.count + 1) / 2
                    if frames.count > half { submit(Array(frames.dropFirst(half))) }
                    delivery.activity.started(half)
                    server.inFlight.add(half, ordering: .relaxed)
                    answer(frames.prefix(half).map { (payload: PayloadHandOff($0.payload), length: $0.reserved) })
                }
                if refusal != nil { break polling }
                end = ContinuousClock.now + Self.pollFor
            }
        }
    }
}
