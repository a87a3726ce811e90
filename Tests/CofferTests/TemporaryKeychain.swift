import Coffer
import CofferTestSupport
import Foundation
import KeychainSelection
import KeychainModel
import Keystore

/// A keychain in a fresh temporary folder, removed when the value is released, reached in this
/// process or through a daemon server.
final class TemporaryKeychain: Sendable {
    let folder: URL
    let keychain: Keychain
    private let daemon: InProcessDaemon?
    /// The group new items without one go to: the caller's first group, or the transport's default.
    let defaultGroup: String

    init(transport: Transport = .embedded, accessGroups: [String]? = nil) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-api-\(UUID().uuidString)")
        // A per-user daemon gives an unregistered program the embedded keychain's view.
        defaultGroup = accessGroups?.first ?? "coffer.default"
        switch transport {
        case .embedded:
            keychain = Keychain(folder: folder, accessGroups: accessGroups)
            daemon = nil
        case .daemon:
            let daemon = try? InProcessDaemon(folder: KeychainFolder(url: folder), groups: accessGroups)
            self.daemon = daemon
            keychain = Keychain(client: DaemonKeychain(socketPath: daemon?.socketPath ?? "/nonexistent"))
        }
    }

    /// The same folder opened again, as a new process would: a keychain with a passcode starts locked.
    func reopened(accessGroups: [String]? = nil) -> Keychain {
        Keychain(folder: folder, accessGroups: accessGroups)
    }

    /// Sets a passcode (with the cheap test KDF) on the folder's keystore.
    func setPasscode(_ passcode: String) throws {
        try Keystore.open(folder: KeychainFolder(url: folder))
            .setPasscode(SecretBytes(copying: passcode.utf8), kdf: .insecureForTesting)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// UTF-8 bytes of a string.
func bytes(_ text: String) -> Data { Data(text.utf8) }
