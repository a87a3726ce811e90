import Foundation
@_spi(Testing) import Security
import TestProcesses

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
        let cofferd = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("cofferd")
        let daemon = try? ChildProcess(
            [cofferd.path, "--user", "--socket", socket],
            environment: ["COFFER_HOME": folder.appendingPathComponent("keychain").path, "PATH": "/usr/bin:/bin"],
            output: .null, errors: .null)
        defer { daemon?.terminate() }
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        return try SecurityTesting.withKeychain(socket: socket, body)
    }
}

/// A generic password of `service` as the tests add it: class, service, account and `data`, with `extra`
/// merged over them.
func genericPassword(service: String, account: String, data: Data = Data("pw".utf8), _ extra: [String: Any] = [:]) -> [String: Any] {
    [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
        kSecAttrAccount as String: account, kSecValueData as String: data,
    ].merging(extra) { _, new in new }
}

/// A search for the generic passwords of `service` (of `account` too, when given), with `extra` merged over it.
func genericPasswordSearch(service: String, account: String? = nil, _ extra: [String: Any] = [:]) -> [String: Any] {
    var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
    if let account { query[kSecAttrAccount as String] = account }
    return query.merging(extra) { _, new in new }
}
