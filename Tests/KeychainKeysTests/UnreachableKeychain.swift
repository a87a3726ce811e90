import KeychainClient
import KeychainModel
import KeychainOperations
import Synchronization

/// A client a software key must never use: every request it receives is counted and refused.
final class UnreachableKeychain: KeychainClient {
    private let received = Mutex(0)

    /// How many requests reached it.
    var requests: Int { received.withLock { $0 } }

    func send(_ request: Request) async -> Response { sendBlocking(request) }

    func sendBlocking(_ request: Request) -> Response {
        received.withLock { $0 += 1 }
        return .failure(.internal, reason: "a software key reached the keychain")
    }
}
