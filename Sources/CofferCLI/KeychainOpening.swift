import Foundation
import Keystore

/// Where the CLI finds its keychain.
enum KeychainOpening {
    /// Opens the embedded keychain's keystore in the folder the environment names.
    static func keystore() throws -> Keystore {
        try CLIFailure.reporting { try Keystore.open(folder: KeychainFolder.fromEnvironment()) }
    }
}
