import Foundation
import KeychainClient
import Synchronization

/// The keychain a process's Apple-API modules share (`Security`, `LocalAuthentication`).
///
/// It is the one the environment names (`COFFER_HOME`, else the default folder; see ``KeychainLocation``),
/// chosen on first use and kept for the life of the process. Sharing one client matters: an `LAContext`'s
/// proofs are kept for the connection that made them, so the `SecItem` calls that use the context must go
/// through the same connection.
public enum SharedKeychainClient {
    /// The process-wide client, made on first use. This lock-protected value is the only global state of
    /// the Apple-API modules.
    private static let processClient = Mutex<(any KeychainClient)?>(nil)

    /// A keychain that replaces the process-wide one for the current task (tests of code that uses the
    /// Apple-API modules; `SecurityTesting`).
    @TaskLocal public static var taskClient: (any KeychainClient)?

    /// The client for a call made now.
    public static var current: any KeychainClient {
        if let taskClient { return taskClient }
        return processClient.withLock { client in
            if let client { return client }
            let made = KeychainLocation.client()
            client = made
            return made
        }
    }
}
