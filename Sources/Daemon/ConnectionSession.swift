import CofferDiagnostics
import DaemonProtocol
import Foundation
import KeychainClient
import KeychainOperations
import KeychainService
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One client connection: who it is (fixed at connect) and the loop that answers its frames.
///
/// A client may send several requests before the first answer (they are multiplexed by identifier).
/// When a read brings more than one, the later half is answered on one of the daemon's worker threads
/// and the earlier half on this thread, so a process's concurrent requests proceed in parallel while a
/// lone request pays no hand-off. Answers are written whole, one at a time, in the order they are ready.
final class ConnectionSession: @unchecked Sendable {
    private let connection: Int32
    private let peer: PeerCredentials
    private let keychain: UserKeychain
    private let identity: PeerIdentity
    private let workers: WorkerThreads
    private let logger = DiagnosticsLevel.logger(label: "coffer.daemon")
    private var decoder = FrameDecoder(limits: .requests)
    // Requests of this connection being answered on worker threads; the connection is not closed
    // before they have written their answers.
    private let outstanding = NSCondition()
    private var outstandingCount = 0
    private let writeLock = NSLock()
    private var closed = false
    private let origin: RequestOrigin
    private let router: RequestRouter

    /// Identifies the peer: its uid selects the keychain, its executable the access groups.
    init(
        connection: Int32, id: UInt64, keychains: UserKeychains, identifier: PeerIdentifier, workers: WorkerThreads,
        mode: DaemonConfiguration.Mode
    ) throws {
        self.connection = connection
        self.workers = workers
        peer = try PeerCredentials.of(socket: connection)
        do {
            keychain = try keychains.keychain(for: peer.uid)
            identity = try identifier.identify(peer: peer, registry: keychain.programs, isAbandoned: { SocketHangup.hasHungUp(connection) })
        } catch {
            peer.close()
            throw error
        }
        origin = RequestOrigin(connection: id, identity: identity, keychain: keychain, mode: mode)
        router = RequestRouter(keychain: keychain)
    }

    /// Hooks into the server's bookkeeping of requests in flight.
    struct Admission {
        /// Counts a request in; false when the server is stopping (the request is not answered).
        let begin: @Sendable () -> Bool
        /// Counts a request out.
        let end: @Sendable () -> Void
        /// Whether the server is otherwise idle, so this thread may poll for the next request.
        let mayPoll: @Sendable () -> Bool
    }

    /// Answers frames until the peer closes, sends a malformed frame, or the server stops. Between
    /// requests the thread polls briefly for the next one while the daemon has nothing else to do (so
    /// polling never takes a core from a request being answered).
    func run(_ admission: Admission) {
        defer { waitForOutstandingRequests() }
        let receiver = UnixSocket.Receiver()
        while receiver.receive(connection, spinning: Self.nextRequestSpin, while: admission.mayPoll, { bytes -> Bool in
            guard let bytes, !bytes.isEmpty else { return false }
            decoder.append(bytes)
            return true
        }) {
            guard let batch = decodeFrames() else { return }
            // Several requests at once: the later half goes to one worker thread (one hand-off, not one
            // per request), the earlier half is answered here, so two cores work on them together.
            let handedOff = Array(batch.dropFirst((batch.count + 1) / 2))
            if !handedOff.isEmpty {
                for admitted in 0..<handedOff.count where !admission.begin() {
                    for _ in 0..<admitted { admission.end() }
                    return
                }
                beginOutstanding()
                workers.submit { [self] in
                    for envelope in handedOff {
                        answer(envelope)
                        admission.end()
                    }
                    endOutstanding()
                }
            }
            for envelope in batch.prefix((batch.count + 1) / 2) {
                guard admission.begin() else { return }
                let written = answer(envelope)
                admission.end()
                guard written else { return }
            }
        }
        try? decoder.finish()
    }

    /// Withdraws this connection's prompts and stops late answers from being written, then releases the pidfd.
    func close() {
        keychain.prompts.connectionClosed(origin.connection)
        writeLock.lock()
        closed = true
        writeLock.unlock()
        peer.close()
    }

    /// Every complete request in the buffer; nil (the connection is to be closed) after a malformed one.
    private func decodeFrames() -> [RequestEnvelope]? {
        var batch: [RequestEnvelope] = []
        while true {
            let payload: Data
            do {
                guard let next = try decoder.nextFrame() else { return batch }
                payload = next
            } catch {
                logger.notice("closing a connection after a malformed frame", metadata: ["reason": "\(error)", "pid": "\(peer.pid)"])
                return nil
            }
            do {
                batch.append(try RequestEnvelope(decodingPayload: payload))
            } catch {
                logger.notice("closing a connection after a malformed request", metadata: ["reason": "\(error)", "pid": "\(peer.pid)"])
                return nil
            }
        }
    }

    /// Answers one request and writes the answer; false when the peer is gone. A request that waits on a
    /// person (a prompt) is answered later, from the thread that settles it.
    @discardableResult
    private func answer(_ envelope: RequestEnvelope) -> Bool {
        let written = Mutex<Bool?>(nil)
        router.route(envelope.request, from: origin) { [self] response in
            let result = write(response, id: envelope.id)
            written.withLock { $0 = result }
        }
        return written.withLock { $0 } ?? true
    }

    /// Writes one answer whole; false when the peer is gone or the connection was closed.
    private func write(_ response: Response, id: UInt64) -> Bool {
        let frame: Data
        do {
            frame = try ResponseEnvelope(id: id, response: response).encodedFrame()
        } catch {
            // An answer larger than a client accepts: say so rather than send what it would refuse.
            guard let refusal = try? ResponseEnvelope(id: id, response: .status(.allocate)).encodedFrame() else { return false }
            frame = refusal
        }
        writeLock.lock()
        defer { writeLock.unlock() }
        guard !closed else { return false }
        return UnixSocket.writeAll(connection, frame)
    }

    private func beginOutstanding() {
        outstanding.lock()
        outstandingCount += 1
        outstanding.unlock()
    }

    private func endOutstanding() {
        outstanding.lock()
        outstandingCount -= 1
        outstanding.broadcast()
        outstanding.unlock()
    }

    private func waitForOutstandingRequests() {
        outstanding.lock()
        while outstandingCount > 0 { outstanding.wait() }
        outstanding.unlock()
    }

    /// How long the thread polls for a client's next request before sleeping: a client making several
    /// calls in a row sends the next one soon, and a thread that never slept needs no wakeup (see
    /// ``UnixSocket/Receiver``). Bounded, so an idle connection costs no CPU.
    private static let nextRequestSpin = Duration.microseconds(200)
}
