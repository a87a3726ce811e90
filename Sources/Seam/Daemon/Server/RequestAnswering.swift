import ProgramIdentity
import DaemonProtocol
import Foundation
import KeychainModel
import KeychainOperations

/// The caller of an identified connection: its uid and process, and what serves it — its keychain (where its
/// requests come from: its access groups, whether it is a trusted front end; and the router that answers them), or,
/// while that keychain awaits its recovery key, the recovery desk.
struct ConnectionCaller: Sendable {
    /// The caller's user, as the kernel named it.
    let uid: UInt32
    /// The caller's process, for logs.
    let pid: Int32
    /// What answers the caller.
    let serving: Serving

    /// What answers a caller's requests.
    enum Serving: Sendable {
        /// The caller's keychain, the connection and caller as identified at connect, and the router.
        case keychain(UserKeychain, origin: RequestOrigin, router: RequestRouter)
        /// The caller's keychain does not open until it is recovered.
        case recovery(KeychainRecoveryDesk)
    }

    /// The caller behind a connection numbered `connection`, running `program` as process `pid`.
    init(keychain: UserKeychain, program: IdentifiedProgram, pid: Int32, connection: UInt64, mode: DaemonConfiguration.Mode) {
        uid = keychain.uid
        self.pid = pid
        serving = .keychain(
            keychain, origin: RequestOrigin(connection: connection, identity: program, keychain: keychain, mode: mode),
            router: RequestRouter(keychain: keychain))
    }

    /// A caller of process `pid` whose keychain awaits its recovery key.
    init(recovery desk: KeychainRecoveryDesk, pid: Int32) {
        uid = desk.uid
        self.pid = pid
        serving = .recovery(desk)
    }
}

/// A payload handed from the thread that read it to the worker that decodes it, so the worker holds the only
/// reference and can wipe it in place once decoded.
final class PayloadHandOff: @unchecked Sendable {
    // Set by the reading thread before the hand-off, taken once on the worker thread after it.
    private var payload: Data?

    /// Holds `payload`.
    init(_ payload: Data) { self.payload = payload }

    /// The payload; the hand-off keeps no reference.
    func take() -> Data { payload.take() ?? Data() }
}

/// What answering one request came to, delivered to the connection (on the thread that answered it).
enum RequestOutcome: Sendable {
    /// The answer's frame, with the bytes reserved for it until it is written; whoever writes it wipes it.
    case answer(Data, reserved: Int)
    /// Not answered: the connection closed, or the server is stopping, before the request started.
    case dropped
    /// The payload is not a valid request (the reason names no byte of it): the connection is closed.
    case malformed(String)
}

/// Answers one request on a worker thread: decodes it, applies the storage quota, routes it (to the
/// caller's keychain service, or to the prompt broker for a request that waits on a person), encodes the
/// answer and reserves its bytes.
enum RequestAnswering {
    /// Answers the request in `payload`; `deliver` gets the outcome once, from this thread or, for a
    /// request that waits on a person, later from the thread that settles it.
    static func answer(
        _ payload: PayloadHandOff, length: Int, caller: ConnectionCaller, server: ServerContext, closed: ClosedFlag,
        deliver: @escaping @Sendable (RequestOutcome) -> Void
    ) {
        var bytes = payload.take()
        guard !closed.isSet, !server.isStopping else {
            bytes.resetBytes(in: 0..<bytes.count)
            return deliver(.dropped)
        }
        let envelope: RequestEnvelope
        do {
            envelope = try RequestEnvelope(decodingPayload: bytes)
            bytes.resetBytes(in: 0..<bytes.count)
        } catch {
            bytes.resetBytes(in: 0..<bytes.count)
            return deliver(.malformed("\(error)"))
        }
        let (id, uid, pid) = (envelope.id, caller.uid, caller.pid)
        let (keychain, origin, router): (UserKeychain, RequestOrigin, RequestRouter)
        switch caller.serving {
        case .recovery(let desk): return deliver(encode(desk.answer(envelope.request), id: id, uid: uid, pid: pid, server: server))
        case .keychain(let served, let from, let routing): (keychain, origin, router) = (served, from, routing)
        }
        let incoming = StorageQuota.incomingBytes(of: envelope.request, length: length) {
            keychain.service.stagedRestoreBytes(session: origin.connection)
        }
        if StorageQuota.grows(envelope.request), let reason = server.quota.refusal(for: keychain, incoming: incoming) {
            keychain.touch()
            server.refusals.refused("storage", uid: uid, pid: pid, reason: reason)
            return deliver(encode(.failure(.diskFull, reason: reason), id: id, uid: uid, pid: pid, server: server))
        }
        router.route(envelope.request, from: origin) { response in
            deliver(encode(response, id: id, uid: uid, pid: pid, server: server))
        }
    }

    /// The answer's frame, its bytes reserved; `errSecAllocate` in its place when it is larger
    /// than a client accepts or than the caller's bytes-in-flight budget allows.
    private static func encode(_ response: Response, id: UInt64, uid: UInt32, pid: Int32, server: ServerContext) -> RequestOutcome {
        var frame: Data
        do {
            frame = try ResponseEnvelope(id: id, response: response).encodedFrame()
        } catch {
            frame = refusal(id: id, reason: "the answer is larger than a client accepts (\(error))")
        }
        if !server.bytes.reserve(frame.count, for: uid) {
            let reason =
                "the answer (\(frame.count) bytes) does not fit in this user's bytes in flight (\(server.bytes.used(by: uid)) of \(server.bytes.perUser))"
            server.refusals.refused("answer bytes in flight", uid: uid, pid: pid, reason: reason)
            frame.resetBytes(in: 0..<frame.count)
            frame = refusal(id: id, reason: reason)
            // A refusal is a few hundred bytes and replaces a request's reservation: it is always sent.
            server.bytes.forceReserve(frame.count, for: uid)
        }
        return .answer(frame, reserved: frame.count)
    }

    private static func refusal(id: UInt64, reason: String) -> Data {
        (try? ResponseEnvelope(id: id, response: .failure(.allocate, reason: reason)).encodedFrame())
            ?? (try! ResponseEnvelope(id: id, response: .status(.allocate)).encodedFrame())
    }
}
