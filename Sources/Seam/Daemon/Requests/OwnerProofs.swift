import Synchronization

/// The connections of one user that proved the keychain passcode (``Request/proveOwner(passcode:)``): the
/// proof lasts as long as the connection, so the prompt agent proves once when it starts and the `coffer`
/// command once per run.
final class OwnerProofs: Sendable {
    private let proven = Mutex(Set<UInt64>())

    /// Notes that `connection` proved the passcode.
    func record(_ connection: UInt64) {
        _ = proven.withLock { $0.insert(connection) }
    }

    /// Whether `connection` proved the passcode.
    func isProven(_ connection: UInt64) -> Bool {
        proven.withLock { $0.contains(connection) }
    }

    /// A connection closed: its proof ends with it.
    func connectionClosed(_ connection: UInt64) {
        _ = proven.withLock { $0.remove(connection) }
    }
}
