import Engine
import Foundation
import Keystore

/// Which keychain a client uses, from the environment.
///
/// `COFFER_HOME` set → the embedded keychain there. Otherwise the embedded keychain in the default
/// folder (`$XDG_DATA_HOME/coffer`, else `~/.local/share/coffer`). (The daemon, chosen by
/// `COFFER_SOCKET` or the system socket, comes with `cofferd`.)
public enum KeychainLocation {
    /// The client the environment selects.
    public static func client(environment: [String: String] = ProcessInfo.processInfo.environment) -> any KeychainClient {
        EmbeddedKeychain(folder: KeychainFolder.fromEnvironment(environment), caller: .embedded(environment: environment))
    }
}
