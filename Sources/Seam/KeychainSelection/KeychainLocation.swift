import Foundation
import DaemonClient
import EmbeddedClient
import KeychainClient
import KeychainModel

/// Which keychain a client uses, from the environment. The `Security` module, the `Coffer` API and
/// the CLI all follow this rule:
///
/// 1. `COFFER_HOME` set → the keychain in that folder: through its per-user daemon when one serves it
///    (``PerUserDaemon``), else embedded;
/// 2. else `COFFER_SOCKET` set, or the system daemon's socket (`/run/coffer/socket`) present → the
///    daemon; a daemon that does not answer gives `errSecNotAvailable` (-25291), never a silent
///    switch to another keychain;
/// 3. else the keychain in the default folder (`$XDG_DATA_HOME/coffer`, else `~/.local/share/coffer`):
///    through its per-user daemon when one serves it, else embedded.
///
/// A per-user daemon is used only where it gives the same answers as the embedded keychain: not when
/// `COFFER_ACCESS_GROUPS` names the caller's groups, which only the embedded keychain takes from the
/// environment (the daemon gives an unregistered program the embedded keychain's unrestricted view).
public enum KeychainLocation {
    /// The system daemon's socket.
    public static let systemSocketPath = "/run/coffer/socket"

    /// Where the keychain is.
    public enum Choice: Sendable, Equatable {
        /// In this process, in a folder.
        case embedded(KeychainFolder)
        /// Behind the daemon at a socket.
        case daemon(socketPath: String)
    }

    /// The choice the environment makes.
    public static func choice(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        systemSocketExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> Choice {
        let home = environment["COFFER_HOME"].map { !$0.isEmpty } ?? false
        if !home {
            if let socket = environment["COFFER_SOCKET"], !socket.isEmpty { return .daemon(socketPath: socket) }
            if systemSocketExists(systemSocketPath) { return .daemon(socketPath: systemSocketPath) }
        }
        // The folder only now: building its URL is most of what choosing costs.
        let folder = KeychainFolder.fromEnvironment(environment)
        if (environment["COFFER_ACCESS_GROUPS"] ?? "").isEmpty, let socket = PerUserDaemon.liveSocket(for: folder, environment: environment) {
            return .daemon(socketPath: socket)
        }
        return .embedded(folder)
    }

    /// The client the environment selects.
    public static func client(environment: [String: String] = ProcessInfo.processInfo.environment) -> any KeychainClient {
        client(for: choice(environment: environment), environment: environment)
    }

    /// The client for `choice`.
    public static func client(for choice: Choice, environment: [String: String] = ProcessInfo.processInfo.environment) -> any KeychainClient {
        switch choice {
        case .embedded(let folder): EmbeddedKeychain(folder: folder, caller: .embedded(environment: environment), environment: environment)
        case .daemon(let socketPath): DaemonKeychain(socketPath: socketPath)
        }
    }
}
