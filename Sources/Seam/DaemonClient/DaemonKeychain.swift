import CofferRuntime
import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations
import Synchronization

/// The keychain behind `cofferd`: requests go over its Unix socket, and the daemon answers with what
/// this program may see.
///
/// One connection is opened on first use and shared by every request of the process, multiplexed by
/// request identifier (``DaemonConnection``), so concurrent requests proceed in parallel. A daemon that
/// cannot be reached, or whose connection breaks, answers `errSecNotAvailable` (-25291): never a silent
/// switch to another keychain.
///
/// Nothing waits forever (``DaemonTimeouts``): a daemon that does not accept the connection within the
/// connect time-out (5 s), or does not answer a request within its reply time-out (30 s; 10 minutes for
/// requests that may wait for a person), is answered `errSecNotAvailable` with a reason saying which.
///
/// A request is sent again on a new connection only when it certainly did not reach the daemon (not one
/// byte of it was written), or when sending it twice changes nothing (`Request.isIdempotent`). A
/// request lost after some of it was written is answered `errSecNotAvailable`, "it may or may not have
/// taken effect": an add that was committed is never sent again to come back `errSecDuplicateItem`.
public final class DaemonKeychain: KeychainClient {
    /// The daemon's socket.
    public let socketPath: String
    /// How long the client waits to connect and for answers.
    public let timeouts: DaemonTimeouts
    private let connection = Mutex<DaemonConnection?>(nil)
    private let workers = WorkerThreads()

    /// A client of the daemon listening at `socketPath`, with the standard time-outs unless told otherwise.
    public init(socketPath: String, timeouts: DaemonTimeouts = .standard) {
        self.socketPath = socketPath
        self.timeouts = timeouts
    }

    /// Sends `request` on the shared connection; the task is suspended, holding no thread, until its answer
    /// comes. A connection that must be opened first is tried at once without waiting (a daemon that
    /// accepts connects at once); when the daemon cannot take it yet (its backlog is full), the connect is
    /// waited for on one of Coffer's threads, never on the cooperative pool.
    ///
    /// A search or update that finds an item needing the person is authenticated and sent again
    /// (``AuthenticationRetry``).
    public func send(_ request: Request) async -> Response {
        await AuthenticationRetry.run(request) { await transmit($0) }
    }

    private func transmit(_ request: Request) async -> Response {
        for attempt in 0..<2 {
            var opened = openConnection(patience: .zero)
            if case .failure(let failure) = opened, failure.code == ETIMEDOUT {
                if Task.isCancelled { return .status(.userCanceled) }
                opened = await workers.run({ self.openConnection() }, whenCancelled: .failure(UnixSocket.Failure("connect", ECANCELED)))
            }
            let connection: DaemonConnection
            switch opened {
            case .success(let open): connection = open
            case .failure(let failure) where failure.code == ECANCELED: return .status(.userCanceled)
            case .failure(let failure): return unreachable(failure)
            }
            switch await connection.send(request) {
            case .answered(let response): return response
            case .notSent: continue
            case .lost where request.isIdempotent && attempt == 0: continue
            case .lost: return lost
            }
        }
        return notSent
    }

    /// Sends `request` on the shared connection; the calling thread waits for its answer (and reads the
    /// socket for everyone while no one else does).
    public func sendBlocking(_ request: Request) -> Response {
        AuthenticationRetry.run(request) { transmitBlocking($0) }
    }

    private func transmitBlocking(_ request: Request) -> Response {
        for attempt in 0..<2 {
            let connection: DaemonConnection
            switch openConnection() {
            case .success(let open): connection = open
            case .failure(let failure): return unreachable(failure)
            }
            switch connection.roundTrip(request) {
            case .answered(let response): return response
            case .notSent: continue
            case .lost where request.isIdempotent && attempt == 0: continue
            case .lost: return lost
            }
        }
        return notSent
    }

    /// The shared connection, opened (again) when there is none or it broke; the reason when the daemon
    /// cannot be reached. Waits up to `patience` (the connect time-out unless told otherwise) for the
    /// daemon to accept; a connect that would wait longer fails with `ETIMEDOUT`.
    private func openConnection(patience: Duration? = nil) -> Result<DaemonConnection, UnixSocket.Failure> {
        connection.withLock { current in
            if let current, !current.broken { return .success(current) }
            do throws(UnixSocket.Failure) {
                var limits = timeouts
                if let patience { limits.connect = patience }
                let opened = try DaemonConnection(socketPath: socketPath, workers: workers, timeouts: limits)
                current = opened
                return .success(opened)
            } catch {
                current = nil
                return .failure(error)
            }
        }
    }

    /// The answer when no connection could be made: what the connect ran into.
    private func unreachable(_ failure: UnixSocket.Failure) -> Response {
        let what: String
        switch failure.code {
        case ENOENT: what = "there is no socket at \(socketPath) (is cofferd running?)"
        case ECONNREFUSED: what = "nothing listens at \(socketPath) (is cofferd running?)"
        case EACCES, EPERM: what = "permission to connect to \(socketPath) was denied"
        case ETIMEDOUT:
            what = "the keychain daemon at \(socketPath) did not accept the connection within \(timeouts.connect.spoken) (it may be stopped or overloaded)"
        default: what = "connecting to \(socketPath) failed: \(String(cString: strerror(failure.code)))"
        }
        return .failure(.notAvailable, reason: "the keychain daemon cannot be reached: \(what); nothing was sent")
    }

    /// The answer when the request could not be written on two connections in a row.
    private var notSent: Response {
        .failure(.notAvailable, reason: "the keychain daemon at \(socketPath) closed the connection before the request could be sent; nothing was sent")
    }

    private var lost: Response {
        .failure(.notAvailable, reason: "the connection to the keychain daemon at \(socketPath) broke during the request; it may or may not have taken effect")
    }
}
