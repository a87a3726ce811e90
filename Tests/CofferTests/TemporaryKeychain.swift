import Coffer
import Foundation
import Keystore

/// A keychain in a fresh temporary folder, removed when the value is released.
final class TemporaryKeychain: Sendable {
    let folder: URL
    let keychain: Keychain

    init(accessGroups: [String]? = nil) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-api-\(UUID().uuidString)")
        keychain = Keychain(folder: folder, accessGroups: accessGroups)
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
