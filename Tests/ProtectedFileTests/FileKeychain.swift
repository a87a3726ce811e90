import Coffer
import CofferTestSupport
import Foundation
import KeychainSelection
import KeychainModel
import Keystore

/// A keychain with a passcode (or none) in a temporary folder, reached in this process or through a daemon,
/// that can be restarted (a new process's keychain, or a new daemon on the same folder), and a folder for files.
final class FileKeychain: @unchecked Sendable {
    static let passcode = "1234"
    let root: URL
    let folder: KeychainFolder
    let transport: Transport
    private var daemon: InProcessDaemon?
    private(set) var keychain: Keychain

    init(_ transport: Transport, passcode: Bool = true) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-files-\(UUID().uuidString)")
        folder = KeychainFolder(url: root.appendingPathComponent("keychain"))
        self.transport = transport
        if passcode {
            try Keystore.open(folder: folder).setPasscode(SecretBytes(copying: Self.passcode.utf8), kdf: .insecureForTesting)
        } else {
            _ = try Keystore.open(folder: folder)
        }
        (daemon, keychain) = try Self.start(transport, folder)
        if passcode { try unlock() }
    }

    private static func start(_ transport: Transport, _ folder: KeychainFolder) throws -> (InProcessDaemon?, Keychain) {
        switch transport {
        case .embedded:
            return (nil, Keychain(folder: folder.url))
        case .daemon:
            let daemon = try InProcessDaemon(folder: folder, groups: nil)
            return (daemon, Keychain(client: DaemonKeychain(socketPath: daemon.socketPath)))
        }
    }

    /// Stops the keychain (the daemon) and starts it again on the same folder: it starts before the first unlock.
    func restart() throws {
        daemon = nil
        keychain = Keychain(folder: root.appendingPathComponent("nowhere"))
        (daemon, keychain) = try Self.start(transport, folder)
    }

    func unlock() throws { try keychain.client.blocking.unlock(passcode: SecretBytes(copying: Self.passcode.utf8)) }
    func lock() throws { try keychain.client.blocking.lock() }

    /// A path for a file in the test's folder.
    func file(_ name: String) -> URL { root.appendingPathComponent(name) }

    deinit {
        daemon = nil
        try? FileManager.default.removeItem(at: root)
    }
}

/// Deterministic bytes for contents.
func pattern(_ count: Int, seed: UInt8 = 1) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 7 &+ ($0 >> 8)) })
}
