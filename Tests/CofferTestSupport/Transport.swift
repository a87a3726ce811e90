// Shared by the test targets: run the same item tests against the embedded keychain and the daemon.
import CofferRuntime
import ProgramIdentity
import Daemon
import KeychainSelection
import Foundation
import KeychainModel
import Testing
import TrustedPlatformModule

#if canImport(Glibc)
import Glibc
#endif

/// How a test reaches the keychain: the same item tests run against both, with the same expectations.
public enum Transport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The engine in this process.
    case embedded
    /// `cofferd`'s server over a Unix socket (in this process, per-user mode).
    case daemon

    public var testDescription: String { rawValue }
}

/// A daemon server running on a thread of the test process, stopped when released.
public final class InProcessDaemon: Sendable {
    /// The socket the server listens on.
    public let socketPath: String
    let server: DaemonServer

    /// Serves `folder`; this test process is registered with `groups` (nil: left unregistered, so it
    /// gets a group of its own; empty: a pin that never matches, so it has no group at all).
    /// `tpm` is the TPM its keychain's device key is sealed by (none unless told).
    public init(folder: KeychainFolder, groups: [String]?, tpm: TPMSelection = .none) throws {
        socketPath = folder.url.deletingLastPathComponent().appendingPathComponent("socket-\(UUID().uuidString.prefix(8))").path
        var configuration = DaemonConfiguration(mode: .user(folder: folder, uid: getuid()), socketPath: socketPath)
        configuration.tpm = tpm
        server = DaemonServer(configuration: configuration)
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let keychain = try server.keychains.keychain(for: getuid())
        try keychain.changeRegistry { registry in
            registry.remove(executable)
            if let groups {
                registry.register(
                    RegisteredApp(
                        path: executable, appID: groups.first ?? "TEST.none", groups: groups,
                        pinnedSHA256: groups.isEmpty ? "never-matches" : nil))
            }
        }
        let server = server
        Thread { try? server.run() }.start()
        // Wait until the server listens (a loaded machine may take a while to schedule its thread).
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let descriptor = try? UnixSocket.connect(to: socketPath) {
                close(descriptor)
                break
            }
            usleep(2_000)
        }
    }

    deinit { server.shutdown() }

    /// The access group the daemon gives this (unregistered) test process.
    public static var unregisteredGroupOfThisProcess: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return AppRegistry.unregisteredGroup(forPath: executable)
    }
}

/// A daemon on a keychain of its own in a temporary folder, with a client of it; the folder is removed
/// when it is released.
public final class TemporaryDaemon: Sendable {
    /// The daemon.
    public let daemon: InProcessDaemon
    /// A client of the daemon (this test process, unregistered).
    public let client: DaemonKeychain
    private let root: URL

    /// A fresh keychain behind a fresh daemon.
    public init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-daemon-\(UUID().uuidString)")
        daemon = try InProcessDaemon(folder: KeychainFolder(url: root.appendingPathComponent("keychain")), groups: nil)
        client = DaemonKeychain(socketPath: daemon.socketPath)
    }

    deinit { try? FileManager.default.removeItem(at: root) }
}
