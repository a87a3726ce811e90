import Foundation
@_spi(Testing) import Security

#if canImport(Glibc)
import Glibc
#endif

/// How the client code reaches the keychain: the same expectations hold for both.
enum BoundaryTransport: String, CaseIterable, Sendable {
    /// The embedded keychain in this process.
    case embedded
    /// A `cofferd --user` process on a Unix socket.
    case daemon
}

/// Runs `body` against a fresh, empty keychain of its own, so tests can run in parallel.
func withFreshKeychain<Result>(_ transport: BoundaryTransport = .embedded, _ body: () throws -> Result) rethrows -> Result {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("coffer-security-boundary-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    switch transport {
    case .embedded:
        return try SecurityTesting.withKeychain(at: folder, body)
    case .daemon:
        let socket = folder.appendingPathComponent("socket").path
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("cofferd")
        daemon.arguments = ["--user", "--socket", socket]
        daemon.environment = ["COFFER_HOME": folder.appendingPathComponent("keychain").path, "PATH": "/usr/bin:/bin"]
        daemon.standardError = FileHandle.nullDevice
        try? daemon.run()
        defer {
            if daemon.isRunning {
                kill(daemon.processIdentifier, SIGTERM)
                daemon.waitUntilExit()
            }
        }
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        return try SecurityTesting.withKeychain(socket: socket, body)
    }
}
