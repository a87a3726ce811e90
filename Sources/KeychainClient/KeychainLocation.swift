import Foundation
import KeychainModel

/// Which keychain a client uses, from the environment. The `Security` module, the `Coffer` API and
/// the CLI all follow this rule:
///
/// 1. `COFFER_HOME` set → the embedded keychain in that folder;
/// 2. else `COFFER_SOCKET` set, or the system daemon's socket (`/run/coffer/socket`) present → the
///    daemon; a daemon that does not answer gives `errSecNotAvailable` (-25291), never a silent
///    switch to another keychain;
/// 3. else the embedded keychain in the default folder (`$XDG_DATA_HOME/coffer`, else `~/.local/share/coffer`).
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
        if let home = environment["COFFER_HOME"], !home.isEmpty { return .embedded(KeychainFolder.fromEnvironment(environment)) }
        if let socket = environment["COFFER_SOCKET"], !socket.isEmpty { return .daemon(socketPath: socket) }
        if systemSocketExists(systemSocketPath) { return .daemon(socketPath: systemSocketPath) }
        return .embedded(KeychainFolder.fromEnvironment(environment))
    }

    /// The client the environment selects.
    public static func client(environment: [String: String] = ProcessInfo.processInfo.environment) -> any KeychainClient {
        switch choice(environment: environment) {
        case .embedded(let folder): EmbeddedKeychain(folder: folder, caller: .embedded(environment: environment), environment: environment)
        case .daemon(let socketPath): DaemonKeychain(socketPath: socketPath)
        }
    }
}
