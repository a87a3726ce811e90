import Foundation
@_spi(Testing) import Security

/// Runs `body` against a fresh, empty keychain of its own, so tests can run in parallel.
func withFreshKeychain<Result>(_ body: () throws -> Result) rethrows -> Result {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("coffer-security-boundary-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try SecurityTesting.withKeychain(at: folder, body)
}
