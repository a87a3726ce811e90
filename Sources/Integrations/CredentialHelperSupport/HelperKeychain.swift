import CCofferSystem
import Foundation
import KeychainSelection

/// The keychain a credential helper uses, chosen as the `coffer` CLI chooses it (``KeychainLocation``:
/// `COFFER_HOME` → embedded, `COFFER_SOCKET` → cofferd), with the CLI's process hardening.
///
/// Core files are disabled first. The process becomes non-dumpable once the daemon, if there is one, has
/// identified the connection (the per-user daemon reads `/proc/PID/exe`, which a non-dumpable process of the
/// same user hides): a lock-status request opens the connection, and every later request reuses it.
public enum HelperKeychain {
    /// Hardens the process and returns the client the environment selects.
    public static func connect(environment: [String: String] = ProcessInfo.processInfo.environment) -> any KeychainClient {
        _ = coffer_disable_core_files()
        let client = KeychainLocation.client(environment: environment)
        if client is DaemonKeychain {
            // Any answer means the daemon has identified the connection; a failure is reported by the
            // helper's own request.
            _ = client.sendBlocking(.lockStatus)
        }
        _ = coffer_set_undumpable()
        return client
    }
}
