import CofferRuntime
import DaemonProtocol
import Foundation
import KeychainModel
import KeychainOperations

#if canImport(Glibc)
import Glibc
import KeychainClient
#endif

/// One connection to `cofferd`, shared by every request of the process and multiplexed by request
/// identifier: requests from several tasks or threads are in flight together, and each answer goes to
/// the request whose identifier it repeats.
///
/// No thread is set aside for reading. Whoever is waiting reads (leader and followers): a thread that
/// blocks for its answer (``roundTrip(_:)``) reads the socket itself while no one else does, handing
/// other requests' answers to them; an `async` request (``send(_:)``) waits as a continuation, holding
/// no thread, and when only such requests are waiting, one of Coffer's worker threads reads for them
/// until none is left. The reader polls briefly before it sleeps in `recv` (see `UnixSocket.Receiver`).
///
/// When the connection breaks, every waiting request is answered `errSecNotAvailable` and the
/// connection is done; the client opens a new one for the next request.
///
/// Every request has a deadline, its reply time-out (``DaemonTimeouts``) from the moment it is
/// registered: a request still unanswered then is answered `errSecNotAvailable`, saying the daemon did
/// not answer in time and that the request may or may not have taken effect. The connection stays
/// open for the others, and a late answer is dropped. The reader sleeps in `poll` until the earliest
/// deadline (at most a second at a time, so a request registered with an earlier deadline than the one
/// being slept towards is late by at most a second).
final class DaemonConnection: @unchecked Sendable {
    // Everything below `condition` is guarded by it, except `decoder` and `receiver`, which only the
    // reader (the one caller with `hasReader` set by itself) touches.
    private let descriptor: Int32
    private let workers: WorkerThreads
    private let condition = NSCondition()
    private let writeLock = NSLock()
    private var waiters: [UInt64: Waiter] = [:]
    private var nextID: UInt64 = 1
    private var hasReader = false
    private var isBroken = false
    private var decoder = FrameDecoder(limits: .responses)
    private let receiver = UnixSocket.Receiver()
    private let socketPath: String
    private let timeouts: DaemonTimeouts

    /// How long the reader polls for an answer before sleeping: most answers come sooner, and a thread
    /// that never slept needs no wakeup. Someone is waiting for the answer anyway.
    private static let answerSpin = Duration.microseconds(300)
    /// Frames up to this size are written from the calling task; larger ones from a worker thread, since
    /// the write may wait for the daemon to read.
    private static let inlineWriteLimit = 64 << 10

    /// Who waits for one answer: a blocked thread (which reads ``response``), or a suspended task
    /// (resumed through ``resume``).
    private final class Waiter {
        var response: Response?
        let resume: (@Sendable (Response?) -> Void)?
        /// When the request is answered `errSecNotAvailable` if the daemon has not answered it; nil for a
        /// request that waits as long as it takes (the prompt agent's standing request).
        let deadline: ContinuousClock.Instant?
        /// The reply time-out the deadline comes from, for the reason.
        let timeout: Duration?
        init(timeout: Duration?, resume: (@Sendable (Response?) -> Void)? = nil) {
            self.resume = resume
            self.timeout = timeout
            deadline = timeout.map { .now + $0 }
        }
        var isTask: Bool { resume != nil }
    }

    /// An encoded request on its way to ``write(_:)`` from a task, held by reference so that the one copy of
    /// its bytes is the one wiped, whichever thread writes it.
    private final class PendingFrame: @unchecked Sendable {
        var bytes: Data
        init(_ bytes: Data) { self.bytes = bytes }
    }

    /// The longest the reader sleeps before it looks at the deadlines again.
    private static let deadlineCheck = Duration.seconds(1)

    /// What a request's sending came to.
    enum Outcome {
        /// The daemon's answer.
        case answered(Response)
        /// Nothing was written: the connection was already broken. Safe to send again elsewhere.
        case notSent
        /// The connection broke after the request was (perhaps partly) written.
        case lost
    }

    /// Connects to the daemon at `socketPath`, waiting at most `timeouts.connect` for it to accept.
    init(socketPath: String, workers: WorkerThreads, timeouts: DaemonTimeouts) throws(UnixSocket.Failure) {
        do {
            descriptor = try UnixSocket.connect(to: socketPath, timeout: timeouts.connect)
        } catch let failure as UnixSocket.Failure {
            throw failure
        } catch {
            throw UnixSocket.Failure("connect \(socketPath)", EIO)
        }
        // A write the daemon does not read (stopped, its buffer full) fails instead of blocking forever.
        UnixSocket.setSendTimeout(descriptor, timeouts.reply)
        self.workers = workers
        self.socketPath = socketPath
        self.timeouts = timeouts
    }

    deinit { close(descriptor) }

    /// Whether the connection has broken; a broken connection answers nothing more.
    var broken: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isBroken
    }

    // MARK: Sending

    /// Sends `request` and blocks the calling thread until its answer comes.
    func roundTrip(_ request: Request) -> Outcome {
        let waiter = Waiter(timeout: timeouts.reply(for: request.kind))
        guard let id = register(waiter) else { return .notSent }
        guard var frame = encode(request, id: id) else { return abandon(id, answer: .status(.param)) }
        switch write(&frame) {
        case .notSent: return abandon(id, answer: nil)
        case .lost: return .lost
        case .sent: break
        }
        return wait(for: waiter)
    }

    /// Sends `request` and suspends the calling task until its answer comes. Cancelling the task ends
    /// the wait, with `errSecUserCanceled`, for a request that changes nothing; a request that may change
    /// the keychain is waited for to its end, so that a write is never reported as cancelled.
    func send(_ request: Request) async -> Outcome {
        // Nothing has happened yet: any request, a write too, can still be given up.
        if Task.isCancelled { return .answered(.status(.userCanceled)) }
        let identifier = IdentifierBox()
        let response: Response? = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Response?, Never>) in
                let bridge = Bridge(continuation)
                let waiter = Waiter(timeout: timeouts.reply(for: request.kind), resume: bridge.finish)
                guard let id = register(waiter) else { return bridge.finish(nil) }
                identifier.set(id)
                guard let pending = encode(request, id: id).map(PendingFrame.init) else {
                    _ = abandon(id, answer: nil)
                    return bridge.finish(.status(.param))
                }
                if pending.bytes.count <= Self.inlineWriteLimit {
                    finishAsyncSend(id, frame: pending, bridge: bridge)
                } else {
                    workers.submit { self.finishAsyncSend(id, frame: pending, bridge: bridge) }
                }
            }
        } onCancel: {
            guard request.isIdempotent, let id = identifier.value else { return }
            cancelWaiting(id)
        }
        guard let response else { return .notSent }
        return isLoss(response) ? .lost : .answered(response)
    }

    private func finishAsyncSend(_ id: UInt64, frame: PendingFrame, bridge: Bridge) {
        switch write(&frame.bytes) {
        case .notSent:
            _ = abandon(id, answer: nil)
            bridge.finish(nil)
        case .lost:
            break  // every waiter, this one included, was answered when the connection broke
        case .sent:
            condition.lock()
            let lead = !hasReader && !waiters.isEmpty
            if lead { hasReader = true }
            condition.unlock()
            if lead { workers.submit { self.read(until: nil) } }
        }
    }

    private func register(_ waiter: Waiter) -> UInt64? {
        condition.lock()
        defer { condition.unlock() }
        guard !isBroken else { return nil }
        let id = nextID
        nextID += 1
        waiters[id] = waiter
        return id
    }

    private func encode(_ request: Request, id: UInt64) -> Data? {
        try? RequestEnvelope(id: id, request: request).encodedFrame()
    }

    /// Forgets a waiter whose request was not sent.
    private func abandon(_ id: UInt64, answer: Response?) -> Outcome {
        condition.lock()
        waiters[id] = nil
        condition.unlock()
        return answer.map(Outcome.answered) ?? .notSent
    }

    private enum WriteOutcome { case sent, notSent, lost }

    /// Writes `frame`, then wipes it: a request may hold a secret (a password being added, a passcode).
    private func write(_ frame: inout Data) -> WriteOutcome {
        writeLock.lock()
        defer {
            writeLock.unlock()
            frame.resetBytes(in: 0..<frame.count)
        }
        switch UnixSocket.send(descriptor, frame) {
        case .complete: return .sent
        case .nothing:
            fail()
            return .notSent
        case .partial:
            fail()
            return .lost
        }
    }

    private func cancelWaiting(_ id: UInt64) {
        condition.lock()
        let waiter = waiters[id]
        if waiter?.isTask == true { waiters[id] = nil }
        condition.unlock()
        waiter?.resume?(.status(.userCanceled))
    }

    // MARK: Reading

    /// Blocks until `waiter` has its answer, reading the socket whenever no one else is.
    private func wait(for waiter: Waiter) -> Outcome {
        condition.lock()
        while true {
            if let response = waiter.response {
                condition.unlock()
                return isLoss(response) ? .lost : .answered(response)
            }
            if !hasReader {
                hasReader = true
                condition.unlock()
                read(until: waiter)
                condition.lock()
                continue
            }
            condition.wait()
        }
    }

    /// Reads and hands out answers until `waiter` has its own (or, for a worker reading for suspended
    /// tasks, until no request waits), then gives up the reader's part: to a blocked thread if one waits,
    /// else to a worker if tasks still wait. The caller has set `hasReader`.
    private func read(until waiter: Waiter?) {
        while true {
            drainFrames()
            condition.lock()
            let done = isBroken || (waiter.map { $0.response != nil } ?? waiters.isEmpty)
            if done {
                hasReader = false
                handOffReading()
                condition.unlock()
                return
            }
            let sleep = timeUntilNextDeadline()
            condition.unlock()
            guard let sleep, sleep > .zero else {
                expireOverdueWaiters()
                continue
            }
            let received = receiver.receive(descriptor, spinning: Self.answerSpin, timeout: min(sleep, Self.deadlineCheck)) {
                bytes -> Bool in
                guard let bytes, !bytes.isEmpty else { return false }
                decoder.append(bytes)
                return true
            }
            switch received {
            case nil: expireOverdueWaiters()
            case false?: fail()
            case true?: break
            }
        }
    }

    /// With the lock held: how long until the earliest waiter's deadline (nil when no one waits).
    private func timeUntilNextDeadline() -> Duration? {
        guard !waiters.isEmpty else { return nil }
        var earliest: ContinuousClock.Instant?
        for waiter in waiters.values {
            if let deadline = waiter.deadline, earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        guard let earliest else { return Self.deadlineCheck }
        return earliest - .now
    }

    /// Answers every waiter whose deadline has passed: the daemon did not answer in time.
    private func expireOverdueWaiters() {
        let now = ContinuousClock.now
        condition.lock()
        let overdue = waiters.filter { $0.value.deadline.map { $0 <= now } ?? false }
        var tasks: [(@Sendable (Response?) -> Void, Response)] = []
        for (id, waiter) in overdue {
            waiters[id] = nil
            let response = timeoutResponse(waiter.timeout ?? .zero)
            if let resume = waiter.resume {
                tasks.append((resume, response))
            } else {
                waiter.response = response
            }
        }
        if !overdue.isEmpty { condition.broadcast() }
        condition.unlock()
        for (resume, response) in tasks { resume(response) }
    }

    private func timeoutResponse(_ timeout: Duration) -> Response {
        .failure(
            .notAvailable,
            reason:
                "the keychain daemon at \(socketPath) did not answer within \(timeout.spoken) (it may be stopped or overloaded); the request may or may not have taken effect"
        )
    }

    /// Hands every complete frame's answer to its waiter. Called by the reader only.
    private func drainFrames() {
        while true {
            var payload: Data
            do {
                guard let next = try decoder.nextFrame() else { return }
                payload = next
            } catch {
                fail()  // a malformed answer ends the connection
                return
            }
            // The answer may carry a secret: its payload is wiped once decoded, as the decoder wipes its buffer.
            let envelope = try? ResponseEnvelope(decodingPayload: payload)
            payload.resetBytes(in: 0..<payload.count)
            guard let envelope else {
                fail()
                return
            }
            deliver(envelope.response, to: envelope.id)
        }
    }

    private func deliver(_ response: Response, to id: UInt64) {
        condition.lock()
        guard let waiter = waiters.removeValue(forKey: id) else {
            condition.unlock()  // a cancelled request's late answer
            return
        }
        if let resume = waiter.resume {
            condition.unlock()
            resume(response)
        } else {
            waiter.response = response
            condition.broadcast()
            condition.unlock()
        }
    }

    /// With the lock held and no reader: lets a waiting thread read, or starts a worker for waiting tasks.
    private func handOffReading() {
        guard !waiters.isEmpty, !isBroken else { return }
        if waiters.values.contains(where: { !$0.isTask }) {
            condition.broadcast()
        } else {
            hasReader = true
            workers.submit { self.read(until: nil) }
        }
    }

    /// Marks the connection broken and answers every waiter `errSecNotAvailable`.
    private func fail() {
        condition.lock()
        isBroken = true
        let waiting = waiters
        waiters.removeAll()
        var tasks: [@Sendable (Response?) -> Void] = []
        for waiter in waiting.values {
            if let resume = waiter.resume {
                tasks.append(resume)
            } else {
                waiter.response = Self.lossResponse
            }
        }
        condition.broadcast()
        condition.unlock()
        for resume in tasks { resume(Self.lossResponse) }
    }

    private static let lossResponse = Response.failure(.notAvailable, reason: "the connection to the keychain daemon broke")

    private func isLoss(_ response: Response) -> Bool { response == Self.lossResponse }
}

/// The identifier a request got, for its cancellation handler.
private final class IdentifierBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: UInt64?
    func set(_ id: UInt64) {
        lock.lock()
        stored = id
        lock.unlock()
    }

    var value: UInt64? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}

/// Resumes a suspended request exactly once: with its answer, with `nil` when nothing was sent, or
/// with `errSecUserCanceled`, whichever comes first.
private final class Bridge: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Response?, Never>?

    init(_ continuation: CheckedContinuation<Response?, Never>) { self.continuation = continuation }

    @Sendable func finish(_ response: Response?) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        continuation?.resume(returning: response)
    }
}
