import Foundation
import KeychainClient
import Synchronization

/// The keychain every function of this module uses.
///
/// It is the one the environment names (`COFFER_HOME`, else the default folder; see
/// ``KeychainLocation``), chosen on the first call and kept for the life of the process. The keychain's
/// files are opened on that first call too. Every function may be called from any thread.
enum SharedKeychain {
    /// The process-wide client, made on first use. This lock-protected value is the module's only global state.
    private static let processClient = Mutex<(any KeychainClient)?>(nil)

    /// A keychain that replaces the process-wide one for the current task (see ``SecurityTesting``).
    @TaskLocal static var taskClient: (any KeychainClient)?

    /// The client for this call.
    static var client: any KeychainClient {
        if let taskClient { return taskClient }
        return processClient.withLock { client in
            if let client { return client }
            let made = KeychainLocation.client()
            client = made
            return made
        }
    }
}
