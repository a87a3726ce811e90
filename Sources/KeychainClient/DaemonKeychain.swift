import KeychainModel
import KeychainOperations
import KeychainService
import Synchronization

/// The keychain behind `cofferd`: requests go over its Unix socket, and the daemon answers with what
/// this program may see.
///
/// One connection is opened on first use and shared by every request of the process, multiplexed by
/// request identifier (``DaemonConnection``), so concurrent requests proceed in parallel. A daemon that
/// cannot be reached, or whose connection breaks, answers `errSecNotAvailable` (-25291): never a silent
/// switch to another keychain. A request is sent again on a new connection only when it certainly did
/// not reach the daemon, or when sending it twice changes nothing.
public final class DaemonKeychain: KeychainClient {
    /// The daemon's socket.
    public let socketPath: String
    private let connection = Mutex<DaemonConnection?>(nil)
    private let workers = WorkerThreads()

    /// A client of the daemon listening at `socketPath`.
    public init(socketPath: String) { self.socketPath = socketPath }

    /// Sends `request` on the shared connection; the task is suspended, holding no thread, until its answer comes.
    public func send(_ request: Request) async -> Response {
        for attempt in 0..<2 {
            guard let connection = openConnection() else { return unreachable }
            switch await connection.send(request) {
            case .answered(let response): return response
            case .notSent: continue
            case .lost where request.isIdempotent && attempt == 0: continue
            case .lost: return lost
            }
        }
        return unreachable
    }

    /// Sends `request` on the shared connection; the calling thread waits for its answer (and reads the
    /// socket for everyone while no one else does).
    public func sendBlocking(_ request: Request) -> Response {
        for attempt in 0..<2 {
            guard let connection = openConnection() else { return unreachable }
            switch connection.roundTrip(request) {
            case .answered(let response): return response
            case .notSent: continue
            case .lost where request.isIdempotent && attempt == 0: continue
            case .lost: return lost
            }
        }
        return unreachable
    }

    /// The shared connection, opened (again) when there is none or it broke; nil when the daemon cannot
    /// be reached.
    private func openConnection() -> DaemonConnection? {
        connection.withLock { current in
            if let current, !current.broken { return current }
            current = try? DaemonConnection(socketPath: socketPath, workers: workers)
            return current
        }
    }

    private var unreachable: Response {
        .failure(.notAvailable, reason: "the keychain daemon at \(socketPath) does not answer")
    }

    private var lost: Response {
        .failure(.notAvailable, reason: "the connection to the keychain daemon at \(socketPath) broke during the request; it may or may not have taken effect")
    }
}
